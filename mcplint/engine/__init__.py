"""Rule packs, selection and the linter that applies them."""
