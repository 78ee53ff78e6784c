// The replay page's review panel (reviews/panel.html): a step named in the
// review opens that step of the replay; a review still being made is asked for
// again every few seconds, and the page is shown again once it is ready.

const POLL_MS = 4000;

function wireSteps(panel) {
  panel.addEventListener("click", (ev) => {
    // (the replay viewer around the panel carries a data-step of its own)
    const link = ev.target instanceof Element ? ev.target.closest("a[data-review-step]") : null;
    if (!link || !panel.contains(link) || !window.replayViewer) return;
    ev.preventDefault();
    window.replayViewer.go(Number(link.dataset.reviewStep));
    history.replaceState(null, "", link.getAttribute("href"));
  });
}

async function waitUntilReady(url) {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    let answer;
    try {
      answer = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    } catch {
      continue; // offline for a moment: ask again later
    }
    if (!answer.ok) continue;
    const review = await answer.json();
    if (review.status !== "pending") {
      location.reload();
      return;
    }
  }
}

const panel = document.getElementById("review");
if (panel) {
  wireSteps(panel);
  if (panel.dataset.reviewUrl) waitUntilReady(panel.dataset.reviewUrl);
}
