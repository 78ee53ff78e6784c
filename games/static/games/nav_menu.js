// The site's links on a phone, behind the header's Menu button (site.css shows
// the button only on a narrow screen, and the links whole on a wider one): the
// button opens and closes them, as a disclosure says with aria-expanded; Escape
// and a click elsewhere close them. Without script nav_noscript.css shows the
// links whole on a phone too, and hides the button.

const toggle = document.getElementById("nav-toggle");
const nav = toggle && toggle.closest(".site-nav");
if (toggle && nav) {
  const isOpen = () => toggle.getAttribute("aria-expanded") === "true";
  const setOpen = (open) => {
    toggle.setAttribute("aria-expanded", String(open));
    nav.classList.toggle("nav-open", open);
  };
  toggle.addEventListener("click", () => setOpen(!isOpen()));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && isOpen()) {
      setOpen(false);
      toggle.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (isOpen() && !nav.contains(event.target)) setOpen(false);
  });
}
