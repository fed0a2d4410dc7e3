// A seat's panel: this player enters their moves here, typed (the legal moves offered) or by
// tapping the board where the game marks its places (a free cell's data-cell). Every move goes
// to the referee's API (api/move), which answers with the verdict as `referee check --json`;
// the board itself follows through the table page's event stream like every other page.
// What to tap comes from the moves the referee lists for this seat, whatever the game: a move
// of one word ("draw", "round") is a button; moves "ME: WORD NUMBER" make a row of number
// fields, one per WORD (a score sheet's categories), entered together.
// Fires "seat-verdict" with the answer (tests and the latency bench wait on it).
"use strict";
(function () {
  const seat = document.getElementById("seat");
  const me = seat.dataset.player;
  const input = document.getElementById("seat-move");
  const options = document.getElementById("seat-moves");
  const pick = document.getElementById("seat-pick");
  const verdict = document.getElementById("seat-verdict");
  const turn = document.getElementById("seat-turn");
  const undoButton = document.getElementById("seat-undo");
  const undoState = document.getElementById("seat-undo-state");
  const sheet = document.getElementById("seat-sheet");
  const quick = document.getElementById("seat-quick");
  let fieldsShown = "";
  let state = { moves: [], to_move: null, undo: null };

  // What is typed outlives a reload (this tab, this seat and match) until it is recorded;
  // not on a page whose moves may carry a secret (data-drafts="off"), nor a password field.
  const draftKey = seat.dataset.drafts === "on" ? `seat-draft:${seat.dataset.match}:${me}` : "";

  function draft() {
    try {
      return (draftKey && JSON.parse(sessionStorage.getItem(draftKey))) || {};
    } catch (e) {
      return {};
    }
  }

  function keepDraft() {
    if (!draftKey) return;
    const boxes = {};
    for (const box of sheet.querySelectorAll("input:not([type=password])")) {
      if (box.value) boxes[box.name] = box.value;
    }
    const move = input.type === "password" ? "" : input.value;
    try {
      if (move || Object.keys(boxes).length) {
        sessionStorage.setItem(draftKey, JSON.stringify({ move, sheet: boxes }));
      } else {
        sessionStorage.removeItem(draftKey);
      }
    } catch (e) { /* storage refused (private mode, full): only a reload loses the draft */ }
  }

  const shownEvent = () => Number(document.body.dataset.event) || null;
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };

  async function refresh() {
    try {
      const r = await fetch("api/state", { credentials: "same-origin", cache: "no-store" });
      if (!r.ok) return;
      state = await r.json();
    } catch (e) {
      return;  // the server is away: the header says "reconnecting…", the next look retries
    }
    turn.textContent = state.to_move === me ? "· your turn" :
      state.to_move ? `· ${state.to_move} to play` : "";
    seat.classList.toggle("mine", state.to_move === me);
    seat.dataset.event = state.event;  // the seat's state is read (tests wait on it)
    options.replaceChildren(...state.moves.slice(0, 500).map((m) => {
      const o = el("option"); o.value = m; return o;
    }));
    tapped(state.moves);
    const asked = state.undo;
    undoButton.textContent = asked && asked.by !== me && !asked.agreed.includes(me)
      ? `Agree: undo (asked by ${asked.by})` : "Undo last…";
    undoState.textContent = asked ? `undo asked by ${asked.by}; waiting for ` +
      asked.waiting_for.join(", ") : "";
  }

  async function send(path, body) {
    const started = performance.now();
    let r, data;
    try {
      r = await fetch(path, { method: "POST", credentials: "same-origin", cache: "no-store",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ by: me, event: shownEvent(), ...body }) });
      data = await r.json();
    } catch (e) {
      data = { error: "no answer from the referee (connection lost?): try again" };
      r = { status: 0 };
    }
    show(r.status, data);
    document.dispatchEvent(new CustomEvent("seat-verdict", { detail:
      { status: r.status, data, ms: performance.now() - started } }));
    refresh();
    return data;
  }

  function show(status, data) {
    verdict.replaceChildren();
    verdict.className = "seat-verdict";
    const head = el("p");
    if (data.error || status >= 400) {
      verdict.classList.add("rejected");
      head.append(el("span", status === 409 ? "⟳ not recorded" : "✗ not taken", "mark"),
                  " " + (data.error || `refused (${status})`));
      verdict.append(head);
      return;
    }
    if ("undo" in data) {
      head.append(el("span", data.undo === "done" ? "↶ undone" : "↶ undo asked", "mark"),
        " " + (data.undo === "done" ? data.took : `waiting for ${data.waiting_for.join(", ")}`));
      verdict.append(head);
      return;
    }
    const recorded = data.event !== undefined;
    verdict.classList.add(data.legal ? "legal" : "rejected");
    head.append(el("span", data.legal ? (recorded ? "✓ ok" : "✓ legal") : "✗ rejected", "mark"),
                " ", el("code", data.move || data.text));
    if (recorded) head.append(` (event ${data.event})`);
    verdict.append(head);
    for (const v of data.violations || []) {
      const rule = el("p", "", "rule");
      rule.append(el("strong", v.rule), " " + v.text);
      verdict.append(rule, el("p", v.reason, "reason"));
    }
    if (data.score && data.score.length) {
      verdict.append(el("p", data.score.map((i) =>
        `${i.player} ${i.points >= 0 ? "+" : ""}${i.points} ${i.label}`).join(", "), "points"));
    }
    if (!data.legal && !data.violations) verdict.append(el("p", data.error || "", "reason"));
  }

  function tapped(moves) {
    quick.replaceChildren(...moves.filter((m) => !/\s/.test(m)).map((m) => {
      const b = el("button", m, "quiet");
      b.type = "button";
      b.dataset.move = m;
      b.addEventListener("click", () => play(m));
      return b;
    }));
    const fields = [...new Set(moves.filter((m) => m.startsWith(me + ": ")).map((m) =>
      m.slice(me.length + 2).split(/\s+/)).filter((w) => w.length === 2 && /^-?\d+$/.test(w[1]))
      .map((w) => w[0]))];
    if (fields.join() === fieldsShown) return;  // keep what is being typed
    fieldsShown = fields.join();
    sheet.hidden = fields.length === 0;
    sheet.replaceChildren(...fields.map((f) => {
      const label = el("label", f);
      const box = el("input");
      box.type = "number"; box.inputMode = "numeric"; box.name = f;
      box.value = (draft().sheet || {})[f] || "";
      label.append(box);
      return label;
    }));
    const enter = el("button", "Enter");
    enter.type = "submit";
    sheet.append(enter);
  }

  sheet.addEventListener("submit", async (e) => {
    e.preventDefault();
    let after = shownEvent();  // each entry follows the one before (the page may lag)
    for (const box of sheet.querySelectorAll("input")) {
      if (box.value.trim() === "") continue;
      const data = await send("api/move", { move: `${box.name} ${box.value.trim()}`,
                                            event: after });
      if (!data.legal) return;  // the verdict says why; what is left stays typed
      box.value = "";
      keepDraft();
      after = data.event;
    }
  });

  function play(text) {
    pick.hidden = true;
    return send("api/move", { move: text }).then((data) => {
      if (data.legal) {
        input.value = "";
        keepDraft();
      }
    });
  }

  input.value = input.value || draft().move || "";
  input.addEventListener("input", keepDraft);
  sheet.addEventListener("input", keepDraft);

  document.getElementById("seat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    if (input.value.trim()) play(input.value.trim());
  });
  document.getElementById("seat-check").addEventListener("click", () => {
    if (input.value.trim()) send("api/check", { move: input.value.trim() });
  });
  undoButton.addEventListener("click", () => send("api/undo", {}));

  // Tapping a place on the board: the legal moves there, one button each (tile and turn).
  document.addEventListener("click", (e) => {
    const place = e.target.closest && e.target.closest(".board [data-cell]");
    if (!place) return;
    const cell = place.dataset.cell.toUpperCase();
    const here = state.moves.filter((m) => m.toUpperCase().split(/\s+/).includes(cell));
    pick.replaceChildren(el("p", here.length ? `cell ${cell}: pick the tile and its turn` :
      state.to_move && state.to_move !== me ? `${state.to_move} is to play, not you` :
      `no tile fits cell ${cell}`, "note"));
    for (const m of here) {
      const b = el("button", m, "choice");
      b.type = "button";
      b.dataset.move = m;
      b.addEventListener("click", () => play(m));
      pick.append(b);
    }
    const close = el("button", "cancel", "quiet");
    close.type = "button";
    close.addEventListener("click", () => { pick.hidden = true; });
    pick.append(close);
    pick.hidden = false;
    pick.scrollIntoView({ block: "nearest" });
  });

  document.addEventListener("table-updated", refresh);
  refresh();
  setInterval(refresh, 3000);  // an undo asked on another phone changes no event: looked for
})();
