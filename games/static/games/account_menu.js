// The account menu in the header is a <details>: it opens and closes without
// script. This closes it, as a menu should: on a click elsewhere, on Escape, and
// once an item is chosen (Vacation only moves down the same page).

const menu = document.getElementById("account-menu");
if (menu) {
  document.addEventListener("click", (event) => {
    if (menu.open && !menu.contains(event.target)) menu.open = false;
  });
  menu.addEventListener("click", (event) => {
    if (event.target.closest("a")) menu.open = false;
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.open) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });
}
