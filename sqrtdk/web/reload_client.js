// Injected by `build.py --serve` into served pages only; never part of the built site.
// One tab holds the server's event stream (a Web Lock elects it) and passes each event to the
// others on a BroadcastChannel, so any number of open tabs uses one connection.
(() => {
  "use strict";
  const mine = new URL(document.currentScript.src).searchParams.get("token");
  let box = null;
  function show(message) {
    if (!box) {
      box = document.createElement("pre");
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;left:0;right:0;bottom:0;margin:0;padding:1rem;" +
        "background:#7f1d1d;color:#fff;font:14px/1.4 monospace;white-space:pre-wrap;z-index:99999";
      document.body.appendChild(box);
    }
    box.textContent = "build failed (still showing the last good site):\n" + message;
  }
  function handle(type, data) {
    if ((type === "hello" || type === "reload") && data !== mine) location.reload();
    else if (type === "failed") show(data);
  }
  function listen(onEvent) {
    const source = new EventSource("/__reload/events");
    ["hello", "reload", "failed"].forEach((t) => source.addEventListener(t, (e) => onEvent(t, e.data)));
  }
  if (window.BroadcastChannel && navigator.locks) {
    const channel = new BroadcastChannel("sqrtdk-reload");
    channel.onmessage = (e) => handle(e.data.type, e.data.data);
    navigator.locks.request("sqrtdk-reload-leader", () => new Promise(() => {
      listen((type, data) => { channel.postMessage({ type, data }); handle(type, data); });
    }));
  } else {
    listen(handle);
  }
})();
