// Filters for the mcplint HTML report. Reads only data-* attributes and form values and toggles
// `hidden`; it never builds markup, so tool text cannot become code.
(function () {
  "use strict";
  var severityBoxes = Array.prototype.slice.call(document.querySelectorAll(".filter-severity"));
  var ruleSelect = document.getElementById("filter-rule");
  var textInput = document.getElementById("filter-text");
  var cleanBox = document.getElementById("filter-clean");
  var status = document.getElementById("filter-status");
  var noMatch = document.getElementById("no-match");
  var findings = Array.prototype.slice.call(document.querySelectorAll("li.finding"));
  var tools = Array.prototype.slice.call(document.querySelectorAll("article.tool"));
  var servers = Array.prototype.slice.call(document.querySelectorAll("section.server"));
  // Searchable text is read from the page once rather than shipped twice in attributes.
  function lower(node, selector) {
    return Array.prototype.map.call(node.querySelectorAll(selector), function (part) {
      return part.textContent;
    }).join(" ").toLowerCase();
  }
  findings.forEach(function (item) {
    item.searchText = item.textContent.toLowerCase();
    item.tool = item.closest("article.tool");
    item.server = item.closest("section.server");
  });
  servers.forEach(function (server) {
    server.shownNote = server.querySelector(".server-shown");
    server.tocRow = document.querySelector("tr.toc-row[data-server='" + server.id + "']");
    server.tocShown = server.tocRow === null ? null : server.tocRow.querySelector(".toc-shown");
  });
  tools.forEach(function (tool) {
    tool.searchText = lower(tool, ".tool-name, div.description, .parameters td:first-child");
    tool.server = tool.closest("section.server");
  });

  // Touch the DOM only where visibility changes: a corpus report has thousands of rows.
  function show(node, visible) {
    if (node.hidden === visible) { node.hidden = !visible; }
  }

  function apply() {
    var severities = {};
    severityBoxes.forEach(function (box) { severities[box.value] = box.checked; });
    var rule = ruleSelect.value;
    var query = textInput.value.trim().toLowerCase();
    var shown = 0;
    var liveTools = new Set();
    var liveServers = new Set();
    var shownIn = new Map();
    var filtered = rule !== "" || query !== "" ||
      severityBoxes.some(function (box) { return !box.checked; });
    findings.forEach(function (item) {
      // A search for a tool (its name, description or a parameter) shows all its findings.
      var visible = severities[item.dataset.severity] === true &&
        (rule === "" || item.dataset.rule === rule) &&
        (query === "" || item.searchText.indexOf(query) !== -1 ||
         (item.tool !== null && item.tool.searchText.indexOf(query) !== -1));
      show(item, visible);
      if (visible) {
        shown += 1;
        shownIn.set(item.server, (shownIn.get(item.server) || 0) + 1);
        liveTools.add(item.tool);
        liveServers.add(item.server);
      }
    });
    tools.forEach(function (tool) {
      var visible;
      if (tool.dataset.findings !== "0") {
        visible = liveTools.has(tool);
      } else {
        // A clean tool has nothing a severity or rule could match; only the search applies.
        visible = rule === "" && !cleanBox.checked &&
          (query === "" || tool.searchText.indexOf(query) !== -1);
      }
      show(tool, visible);
      if (visible) { liveServers.add(tool.server); }
    });
    servers.forEach(function (server) {
      show(server, liveServers.has(server));
      var count = shownIn.get(server) || 0;
      // A folded server says how many of its findings the filters leave, without opening.
      var note = filtered ? " · " + count + " shown" : "";
      if (server.shownNote.textContent !== note) { server.shownNote.textContent = note; }
      if (server.tocRow !== null) {
        show(server.tocRow, liveServers.has(server));
        server.tocShown.textContent = String(count);
      }
    });
    show(noMatch, liveServers.size === 0 && servers.length > 0);
    status.textContent = shown + " of " + findings.length + " findings shown";
  }

  // Worst first: servers by their error, then warning, then info counts; tools by their worst
  // severity, then their number of findings; findings by severity. Ties keep manifest order.
  // Nodes are only moved, never rebuilt.
  var RANK = { error: 3, warning: 2, info: 1 };
  var lists = Array.prototype.slice.call(document.querySelectorAll("ul.findings"));
  var main = document.querySelector("main");
  var noMatchAnchor = noMatch;
  var tocBody = document.querySelector("nav.toc tbody");
  lists.forEach(function (list) { list.original = Array.prototype.slice.call(list.children); });
  servers.forEach(function (server, position) {
    server.position = position;
    server.tools = tools.filter(function (tool) { return tool.server === server; });
    server.tally = [0, 0, 0, 0];
  });
  tools.forEach(function (tool, position) {
    tool.position = position;
    tool.rank = 0;
    tool.count = Number(tool.dataset.findings);
  });
  findings.forEach(function (item, position) {
    var rank = RANK[item.dataset.severity] || 0;
    item.position = position;
    item.rank = rank;
    item.server.tally[3 - rank] += 1;
    if (item.tool !== null && rank > item.tool.rank) { item.tool.rank = rank; }
  });
  function byServer(a, b) {
    for (var i = 0; i < 3; i += 1) {
      if (a.tally[i] !== b.tally[i]) { return b.tally[i] - a.tally[i]; }
    }
    return a.position - b.position;
  }
  function byTool(a, b) {
    return b.rank - a.rank || b.count - a.count || a.position - b.position;
  }
  function byFinding(a, b) { return b.rank - a.rank || a.position - b.position; }
  function byPosition(a, b) { return a.position - b.position; }
  var sorted = "";
  function order(how) {
    if (how === sorted) { return; }
    sorted = how;
    var worst = how === "worst";
    lists.forEach(function (list) {
      list.original.slice().sort(worst ? byFinding : byPosition).forEach(function (item) {
        list.appendChild(item);
      });
    });
    servers.forEach(function (server) {
      var body = server.querySelector("details.server-body");
      server.tools.slice().sort(worst ? byTool : byPosition).forEach(function (tool) {
        body.appendChild(tool);
      });
    });
    servers.slice().sort(worst ? byServer : byPosition).forEach(function (server) {
      main.insertBefore(server, noMatchAnchor);
      if (tocBody !== null && server.tocRow !== null) { tocBody.appendChild(server.tocRow); }
    });
  }

  // The filters and the order live in the query string (?sev=error,warning&rule=SAFE001&q=…
  // &clean=1&order=worst), so a reload or a shared link shows the same view and back and
  // forward step through the changes. The fragment stays free for the page's own anchors.
  var sortSelect = document.getElementById("sort-order");
  function readState() {
    var params = new URLSearchParams(location.search);
    var sev = params.get("sev");
    var wanted = sev === null ? null : sev.split(",");
    severityBoxes.forEach(function (box) {
      box.checked = wanted === null || wanted.indexOf(box.value) !== -1;
    });
    var rule = params.get("rule") || "";
    var known = Array.prototype.some.call(ruleSelect.options, function (option) {
      return option.value === rule;
    });
    ruleSelect.value = known ? rule : "";
    textInput.value = params.get("q") || "";
    cleanBox.checked = params.get("clean") === "1";
    sortSelect.value = params.get("order") === "worst" ? "worst" : "";
  }
  function stateQuery() {
    var params = new URLSearchParams();
    var checked = severityBoxes.filter(function (box) { return box.checked; });
    if (checked.length !== severityBoxes.length) {
      params.set("sev", checked.map(function (box) { return box.value; }).join(","));
    }
    if (ruleSelect.value !== "") { params.set("rule", ruleSelect.value); }
    if (textInput.value !== "") { params.set("q", textInput.value); }
    if (cleanBox.checked) { params.set("clean", "1"); }
    if (sortSelect.value !== "") { params.set("order", sortSelect.value); }
    var query = params.toString();
    return query === "" ? "" : "?" + query;
  }
  var typing = false;
  function remember(replace) {
    var query = stateQuery();
    if (query === location.search) { return; }
    var url = location.pathname + query + location.hash;
    try {
      // Typing replaces the entry it started, so back skips a word, not a letter.
      if (replace) { history.replaceState(null, "", url); } else { history.pushState(null, "", url); }
    } catch (error) {
      // A browser that refuses to rewrite a file: URL keeps the view, only not in the URL.
    }
  }
  function changed(event) {
    var fromTyping = event.type === "input";
    remember(fromTyping && typing);
    typing = fromTyping;
    order(sortSelect.value);
    apply();
  }
  severityBoxes.forEach(function (box) { box.addEventListener("change", changed); });
  ruleSelect.addEventListener("change", changed);
  textInput.addEventListener("input", changed);
  cleanBox.addEventListener("change", changed);
  sortSelect.addEventListener("change", changed);
  window.addEventListener("popstate", function () {
    typing = false;
    readState();
    order(sortSelect.value);
    apply();
  });

  // A link into a folded server (the chart, a table of contents, a rule's back link) opens it
  // first, so the browser has something to scroll to.
  function reveal(id) {
    var target = id ? document.getElementById(id) : null;
    var folded = target === null ? null : target.matches("section.server")
      ? target.querySelector("details.server-body") : target.closest("details.server-body");
    if (folded !== null && !folded.open) { folded.open = true; }
    return target;
  }
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[href^='#']") : null;
    if (link !== null) { reveal(decodeURIComponent(link.getAttribute("href").slice(1))); }
  });
  window.addEventListener("hashchange", function () {
    var target = reveal(decodeURIComponent(location.hash.slice(1)));
    if (target !== null) { target.scrollIntoView(); }
  });
  function fold(open) {
    servers.forEach(function (server) {
      var body = server.querySelector("details.server-body");
      if (body.open !== open) { body.open = open; }
    });
  }
  var openAll = document.getElementById("open-all");
  var closeAll = document.getElementById("close-all");
  if (openAll !== null) {
    openAll.addEventListener("click", function () { fold(true); });
    closeAll.addEventListener("click", function () { fold(false); });
  }

  // Printed reports show every parameter table; the screen keeps them folded.
  var opened = [];
  window.addEventListener("beforeprint", function () {
    opened = Array.prototype.slice.call(document.querySelectorAll("details:not([open])"));
    opened.forEach(function (details) { details.open = true; });
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (details) { details.open = false; });
    opened = [];
  });

  document.documentElement.classList.add("js");
  readState();
  order(sortSelect.value);
  apply();
  var landing = reveal(decodeURIComponent(location.hash.slice(1)));
  if (landing !== null) { landing.scrollIntoView(); }
}());
