// The table's clock: each player's time on turn, from the times the record keeps (the server
// sends each player's finished turns and when the running one began); this ticks the running
// one every second and warns when a turn or a player's game is over its limit (--turn, --clock).
"use strict";
(function () {
  const warning = document.getElementById("clock-warning");
  const limits = { turn: Number(document.body.dataset.turnLimit) || 0,
                   game: Number(document.body.dataset.gameLimit) || 0 };

  function reading(seconds) {
    const s = Math.floor(seconds), m = Math.floor(s / 60), h = Math.floor(m / 60);
    const two = (n) => String(n).padStart(2, "0");
    return h ? `${h}:${two(m % 60)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
  }

  function tick() {
    const players = document.querySelector(".players[data-since]");
    if (!players) return;
    const who = players.dataset.onTurn, since = Number(players.dataset.since);
    const running = who && since ? Math.max(0, Date.now() / 1000 - since) : 0;
    const late = [];
    for (const clock of document.querySelectorAll(".players .clock[data-player]")) {
      const mine = clock.dataset.player === who;
      const total = Number(clock.dataset.spent) + (mine ? running : 0);
      clock.textContent = reading(total);
      clock.classList.toggle("running", mine);
      if (mine && limits.turn && running > limits.turn) {
        late.push(`${who} is over the ${reading(limits.turn)} turn limit`);
      }
      if (mine && limits.game && total > limits.game) {
        late.push(`${who} is over the ${reading(limits.game)} game clock`);
      }
    }
    warning.hidden = late.length === 0;
    warning.textContent = late.length ? "⏰ " + late.join("; ") : "";
  }

  tick();
  setInterval(tick, 1000);
  document.addEventListener("table-updated", tick);
})();
