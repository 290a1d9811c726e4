/* The live view's table page: the replay viewer (referee/replay/viewer.html) fed as the game is played.
   The server sends "game" when the table starts a new game, "more" with the steps since the last,
   and "over" when the run ends. */
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const header = document.querySelector("header .controls");
  const status = document.createElement("span");
  status.id = "live-status";
  status.style.cssText = "padding:0 8px;border-radius:9px;background:#2e7d32;color:#fff;font-size:12px";
  status.textContent = "live";
  header.append(status);
  window.arenaReplay.game(data.games[0]);  // at its newest step, to follow the play
  let game = data.games[0].id;
  let steps = data.liveSteps;
  const url = data.live + "?game=" + encodeURIComponent(game) + "&steps=" + steps;
  const source = new EventSource(url);
  source.addEventListener("game", (e) => {
    const next = JSON.parse(e.data);
    game = next.id;
    steps = next.steps.length;
    window.arenaReplay.game(next);
    document.body.dataset.liveGame = game;
  });
  source.addEventListener("more", (e) => {
    const more = JSON.parse(e.data);
    steps += more.length;
    window.arenaReplay.more(more);
  });
  source.addEventListener("over", () => {
    status.textContent = "run over";
    status.style.background = "#757575";
    source.close();
  });
  document.body.dataset.liveGame = game;
})();
