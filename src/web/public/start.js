// Starts the web app once the page has painted (src/server/lib/page-shell.ts puts this script in
// place of the entry's): the page the server drew, or the painted header, is on screen before any
// of the app's JavaScript is fetched, so the stylesheet and the page's images have the link to
// themselves. Then the entry is imported, and every module the page needs is fetched beside it
// (data-preload), a few hints at a time: each hint costs the main thread about a millisecond on a
// slow phone, and a page that answers no click for 100 ms feels stuck.
// A page in a background tab paints nothing until shown: it starts at once.
(function () {
  var script = document.currentScript;
  var entry = script && script.getAttribute("data-entry");
  if (!entry) return;
  var preload = (script.getAttribute("data-preload") || "").split(" ").filter(Boolean);
  var next = 0;
  var hint = function () {
    var links = document.createDocumentFragment();
    for (var end = Math.min(next + 5, preload.length); next < end; next++) {
      var link = document.createElement("link");
      link.rel = "modulepreload";
      link.crossOrigin = "";
      link.href = preload[next];
      links.appendChild(link);
    }
    document.head.appendChild(links);
    if (next < preload.length) setTimeout(hint);
  };
  var start = function () {
    import(entry);
    hint();
  };
  if (document.visibilityState === "visible") {
    requestAnimationFrame(function () {
      setTimeout(start);
    });
  } else start();
})();
