// The game page of a game with no UI folder of its own: its view as JSON and
// each legal action a button (games/board_generic.html), on the generic client.
import { createClient } from "./client.js";

const root = document.getElementById("game");
const view = document.getElementById("generic-view");
const actions = document.getElementById("generic-actions");
const error = document.getElementById("move-error");
const status = document.getElementById("turn-status");
let page = JSON.parse(document.getElementById("game-state").textContent);

function render() {
  view.textContent = JSON.stringify(page.state, null, 2);
  if (status) status.textContent = page.status_text;
  actions.replaceChildren(...(page.action_texts || []).map((text, i) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button";
    button.textContent = text;
    button.addEventListener("click", () => client.submit(page.legal_actions[i]));
    item.append(button);
    return item;
  }));
}

const client = createClient({
  root,
  getPage: () => page,
  onState: (fresh) => {
    page = fresh;
    render();
  },
  onError: (text) => {
    error.textContent = text;
  },
  onBusy: (busy) => {
    for (const button of actions.querySelectorAll("button")) button.disabled = busy;
  },
});

render();
client.startPolling();
root.dataset.ready = "true";
// for tests and the curious: the page's state as the client holds it
window.gamePage = { get page() { return page; }, get busy() { return client.isBusy(); } };
