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

  severityBoxes.forEach(function (box) { box.addEventListener("change", apply); });
  ruleSelect.addEventListener("change", apply);
  textInput.addEventListener("input", apply);
  cleanBox.addEventListener("change", apply);

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
  apply();
  var landing = reveal(decodeURIComponent(location.hash.slice(1)));
  if (landing !== null) { landing.scrollIntoView(); }
}());
