// The settings page's "Turn on push on this device" (notifications/push.py): the
// browser is asked for permission to show notifications only when the button is
// pressed; then the service worker (/sw.js) subscribes at the browser's push
// service with the site's public key, and the subscription is posted to the site,
// which keeps it as a device of the player's. The device's id is kept in this
// browser (DEVICE_KEY) for the game pages, which say while they are open
// (games/open_page.js). Removing this browser's own device unsubscribes it too.

import { DEVICE_KEY } from "../games/open_page.js";

const box = document.getElementById("push-this-device");
const button = document.getElementById("push-on");
const status = document.getElementById("push-status");
const csrf = document.querySelector('meta[name="csrf-token"]');
const worker = document.querySelector('meta[name="service-worker"]');

/** The public key as PushManager.subscribe takes it: the bytes of base64url ``text``. */
export function keyBytes(text) {
  const padded = text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "=");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

/** A first name for this device, from what the browser says of itself: "Chrome on Android". */
export function deviceName(agent = navigator.userAgent) {
  const browser = [["Edg/", "Edge"], ["Firefox/", "Firefox"], ["Chrome/", "Chrome"],
    ["Safari/", "Safari"]].find(([mark]) => agent.includes(mark));
  const system = [["Android", "Android"], ["iPhone", "iPhone"], ["iPad", "iPad"],
    ["Windows", "Windows"], ["Mac OS", "Mac"], ["CrOS", "ChromeOS"], ["Linux", "Linux"]]
    .find(([mark]) => agent.includes(mark));
  return `${browser ? browser[1] : "A browser"}${system ? ` on ${system[1]}` : ""}`;
}

function say(text) {
  status.textContent = text;
}

function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

async function registration() {
  if (worker) await navigator.serviceWorker.register(worker.content, { scope: "/" });
  return navigator.serviceWorker.ready;
}

async function turnOn() {
  say("");
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    say("Push stays off: the browser may not show this site's notifications "
      + "(it can be allowed in the browser's site settings).");
    return;
  }
  button.disabled = true;
  try {
    const ready = await registration();
    let subscription;
    try {
      subscription = await ready.pushManager.subscribe({ userVisibleOnly: true,
        applicationServerKey: keyBytes(box.dataset.key) });
    } catch (e) {
      say(`The browser could not subscribe at its push service: ${e.message || e}`);
      return;
    }
    const resp = await fetch(box.dataset.addUrl, { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json",
        "X-CSRFToken": csrf ? csrf.content : "" },
      body: JSON.stringify({ subscription: subscription.toJSON(), name: deviceName() }) });
    const data = await resp.json().catch(() => ({}));
    if (!resp.ok) {
      say(`The site did not take this device: ${data.message || resp.status}.`);
      return;
    }
    localStorage.setItem(DEVICE_KEY, String(data.id));
    window.location.assign(`${window.location.pathname}?push=${data.id}#push`);
  } catch (e) {
    say(`Push could not be turned on: ${e.message || e}`);
  } finally {
    button.disabled = false;
  }
}

function markThisDevice() {
  const mine = localStorage.getItem(DEVICE_KEY);
  const item = mine && document.querySelector(`.push-device[data-device="${CSS.escape(mine)}"]`);
  if (!item) return;
  item.querySelector(".push-this").hidden = false;
  say("Push is on on this device.");
  // removing this very device: the browser's subscription goes too
  item.querySelector("[data-remove]").addEventListener("click", () => {
    localStorage.removeItem(DEVICE_KEY);
    navigator.serviceWorker.ready
      .then((ready) => ready.pushManager.getSubscription())
      .then((subscription) => subscription && subscription.unsubscribe())
      .catch(() => {});
  });
}

if (box) {
  if (!supported()) {
    button.disabled = true;
    say("This browser cannot take push notifications.");
  } else {
    if (Notification.permission === "denied") {
      say("This browser is set to refuse this site's notifications: allow them in its site "
        + "settings to turn push on.");
    }
    markThisDevice();
    button.addEventListener("click", turnOn);
  }
}
