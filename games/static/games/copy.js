// Copy buttons: a <button data-copy="ID"> copies the value of the field with that id
// (an invitation link to pass on) and says so in the status beside it. Where the
// clipboard API is missing (a page served over plain http), it selects the text
// and copies it the old way, or asks for Ctrl+C.

async function copyField(field) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(field.value);
    return true;
  }
  field.focus();
  field.select();
  try {
    return document.execCommand("copy");
  } catch (e) {
    return false;
  }
}

function statusBeside(button) {
  const status = button.parentElement.querySelector(".copy-status");
  return status || button;
}

for (const button of document.querySelectorAll("button[data-copy]")) {
  button.addEventListener("click", async () => {
    const field = document.getElementById(button.dataset.copy);
    if (!field) return;
    const status = statusBeside(button);
    let copied = false;
    try {
      copied = await copyField(field);
    } catch (e) {
      copied = false;
    }
    if (!copied) {
      field.focus();
      field.select();
    }
    status.textContent = copied ? "Copied." : "Selected: press Ctrl+C (or ⌘C) to copy.";
    button.textContent = copied ? "Copied" : "Copy";
  });
}
