// The table page follows the match by itself: the server sends the newly rendered table over
// server-sent events after every move typed in any terminal. Each update sets
// document.body.dataset.event and fires a "table-updated" event (tests and benches wait on it).
"use strict";
(function () {
  // A LAN link carries the token once: the server has set it as a cookie, so it leaves the
  // address bar and the history, where anyone glancing at the phone could read it.
  const here = new URL(location.href);
  if (here.searchParams.has("token")) {
    here.searchParams.delete("token");
    history.replaceState(history.state, "", here.pathname + here.search + here.hash);
  }
  const main = document.getElementById("table");
  const pictureStyle = document.getElementById("picture-style");
  const live = document.getElementById("live");
  // ?match=N: this page stays on match N (a scratch match's page links back to the real one)
  const asked = here.searchParams.get("match");
  const pinned = asked ? "match=" + encodeURIComponent(asked) : "";
  const source = new EventSource("events" + (pinned ? "?" + pinned : ""));
  source.onopen = () => { live.textContent = "live"; live.classList.add("on"); };
  source.onerror = () => { live.textContent = "reconnecting…"; live.classList.remove("on"); };
  source.onmessage = (message) => {
    const data = JSON.parse(message.data);
    const shown = (data.match ?? "") + ":" + data.event;
    if (shown !== document.body.dataset.match + ":" + document.body.dataset.event) {
      if (data.style !== document.body.dataset.style) {  // the picture's style sheet changed
        document.body.dataset.style = data.style;
        pictureStyle.href = "picture.css?" + (pinned ? pinned + "&" : "") + "v=" + data.style;
      }
      main.innerHTML = data.html;
    }
    document.body.dataset.match = data.match ?? "";
    document.body.dataset.event = data.event;
    document.dispatchEvent(new CustomEvent("table-updated",
      { detail: { match: data.match, event: data.event, at: Date.now() } }));
  };
})();
