// "Photograph the table" on a seat's page: the phone's camera (capture=environment) takes the
// photo, the whole file goes to the referee (api/photo), which reads it as `referee look` does
// and answers the position it proposes and the overlay to check it against (each tile read
// outlined and named, each marker not read crossed out). Nothing is recorded until the player
// confirms: the move the photo shows (the table's board with one tile more) is played as if
// typed (the seat's own Play: the same checks and verdict), or the position becomes a
// dispute's scratch match (api/photo/dispute). A symbol deck's table (Dobble) has no position:
// the page shows the cards read and, for every two, the symbol they share (ringed on the
// overlay when there are two), which settles "that's not a match!"; nothing to confirm.
// Fires "seat-photo" once the answer and its overlay are shown, "seat-photo-dispute" once the
// scratch match is made (tests wait on them).
"use strict";
(function () {
  const input = document.getElementById("seat-photo");
  if (!input) return;  // no OpenCV on the server: the panel says how to install it
  const $ = (id) => document.getElementById(id);
  const result = $("seat-photo-result");
  const status = $("seat-photo-status");
  const overlay = $("seat-photo-overlay");
  const position = $("seat-photo-position");
  const unseen = $("seat-photo-unseen");
  const shared = $("seat-photo-shared");
  const confirm = $("seat-photo-dispute");
  const play = $("seat-photo-move");
  const why = $("seat-photo-why");
  const made = $("seat-photo-made");
  let key = null;
  const tell = (name, detail) => document.dispatchEvent(new CustomEvent(name, { detail }));

  async function post(path, body, type) {
    try {
      const r = await fetch(path, { method: "POST", credentials: "same-origin",
        cache: "no-store", headers: { "content-type": type }, body });
      return { status: r.status, data: await r.json() };
    } catch (e) {
      return { status: 0, data: { error: "no answer from the referee (connection lost?): " +
                                          "try again" } };
    }
  }

  function clear(text) {
    key = null;
    result.hidden = false;
    result.classList.remove("rejected");
    status.textContent = text;
    overlay.hidden = true;
    overlay.removeAttribute("src");
    position.textContent = "";
    unseen.replaceChildren();
    shared.replaceChildren();
    confirm.hidden = true;
    play.hidden = true;
    why.textContent = "";
    made.replaceChildren();
  }

  input.addEventListener("change", async () => {
    const file = input.files[0];
    if (!file) return;
    clear("reading the photo…");
    const got = await post("api/photo", file, file.type || "application/octet-stream");
    input.value = "";  // the same photo may be sent again
    const data = got.data;
    if (data.error) {
      result.classList.add("rejected");
      status.textContent = "✗ " + data.error;
      tell("seat-photo", got);
      return;
    }
    key = data.key;
    const missed = data.not_seen.length;
    const symbols = data.kind === "symbols";
    const noun = !symbols ? "" : data.read === 1 ? "card " : "cards ";
    status.textContent = `${data.read} ${noun}read` +
      (missed ? `, ${missed} not seen` : "") +
      (!data.read ? ": nothing to use; take the photo closer, from above, in even light" :
       symbols ? ": check the outlines against the table (a card not outlined was not seen)" :
                 ": check the outlines against the table before you use it");
    shared.replaceChildren(...data.shared.map((s) => {
      const li = document.createElement("li");
      const name = document.createElement("strong");
      name.textContent = s.symbol || "no single symbol";
      li.append(`${s.cards[0]} and ${s.cards[1]} share: `, name);
      return li;
    }));
    unseen.replaceChildren(...data.not_seen.map((c) => {
      const li = document.createElement("li");
      // a back carries no card id: the photo never says which card lies face down
      li.textContent = `not seen: ${c.id === null ? "a face-down card" : `card ${c.id}`} (${c.why})`;
      return li;
    }));
    position.textContent = data.position;
    const shown = new Promise((done) => { overlay.onload = done; overlay.onerror = done; });
    overlay.src = data.overlay;
    await shown;
    overlay.hidden = false;
    confirm.hidden = data.read === 0 || !data.position;
    play.hidden = !data.move;
    play.textContent = data.move ? `Play ${data.move}` : "";
    play.dataset.move = data.move || "";
    why.textContent = data.read && !data.move && data.move_why ?
      `No move to play: ${data.move_why}.` : "";
    tell("seat-photo", got);
  });

  confirm.addEventListener("click", async () => {
    if (!key) return;
    confirm.disabled = true;
    const got = await post("api/photo/dispute", JSON.stringify({ photo: key }),
                           "application/json");
    confirm.disabled = false;
    const data = got.data;
    made.replaceChildren();
    if (data.error) {
      made.textContent = "✗ " + data.error;
    } else {
      confirm.hidden = true;
      const link = document.createElement("a");
      link.href = data.link;
      link.textContent = `match ${data.match}`;
      made.append("✓ the position is ", link, ", a scratch match to settle the dispute " +
                  `(out of standings; \`${data.back}\` goes back in a terminal)`);
    }
    tell("seat-photo-dispute", got);
  });

  play.addEventListener("click", () => {  // as if typed: the seat's Play judges and records
    document.getElementById("seat-move").value = play.dataset.move;
    play.hidden = true;
    document.getElementById("seat-play").click();
  });

  $("seat-photo-cancel").addEventListener("click", () => { clear(""); result.hidden = true; });
})();
