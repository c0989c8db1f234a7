"""Hit rate: whether a search over a server's tool surface leads each request to its tool.

This module holds only what the command line needs to declare its options, so that
``mcplint --help`` does not import the index.
"""

# Name → what the retriever is, as the reports state it.
RETRIEVERS: dict[str, str] = {
    "bm25": "BM25 (k1=1.2, b=0.75) over name words, description and parameters",
    "regex": "regex search: the request's words as alternatives (?i)\\b(w1|w2|…), ranked by "
             "how many of them match, then by matches in all",
    "tfidf": "TF-IDF cosine over the same terms",
}
DEFAULT_RETRIEVER = "bm25"
DEFAULT_TOP_K = 3
FORMATS = ("text", "json", "markdown", "sarif", "html")
