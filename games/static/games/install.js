// The site as an installable app: registers the service worker (its address in
// the page's <meta name="service-worker">, the site's root, so that it serves
// every page). Where the browser has no service workers, or the page is not in
// a secure context, the site works as before.

const meta = document.querySelector('meta[name="service-worker"]');
if (meta && "serviceWorker" in navigator) {
  navigator.serviceWorker.register(meta.content, { scope: "/" }).catch(() => {});
}
