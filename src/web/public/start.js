// Starts the web app once the page has painted (src/server/lib/page-shell.ts puts this script in
// place of the entry's): the page the server drew, or the painted header, is on screen before any
// of the app's JavaScript is fetched, so the stylesheet and the page's images have the link to
// themselves. Then the entry is imported, and beside it every module the page needs (data-preload),
// a few a task: each module runs once it and what it imports have arrived, in a task of its own,
// instead of all of them in the entry's one long task when the last one arrives.
// A page in a background tab paints nothing until shown: it starts at once.
(function () {
  var script = document.currentScript;
  var entry = script && script.getAttribute("data-entry");
  if (!entry) return;
  // Those the others import, first.
  var modules = (script.getAttribute("data-preload") || "").split(" ").filter(Boolean).reverse();
  var next = 0;
  var ignore = function () {};
  var load = function () {
    for (var end = Math.min(next + 4, modules.length); next < end; next++) import(modules[next]).catch(ignore);
    if (next < modules.length) setTimeout(load);
  };
  var start = function () {
    import(entry);
    load();
  };
  if (document.visibilityState === "visible") {
    requestAnimationFrame(function () {
      setTimeout(start);
    });
  } else start();
})();
