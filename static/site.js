// Small enhancements of the site's pages; every page works without them.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  // "Copy the token" button on the stored page (hidden when there is no clipboard).
  for (const button of document.querySelectorAll("button[data-copy]")) {
    const source = document.getElementById(button.dataset.copy);
    if (!source || !navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(source.textContent.trim());
        button.textContent = "Copied";
      } catch (error) {
        button.textContent = "Select the token and copy it";
      }
    });
  }

  // Choosing a file empties the text box, so it is clear which of the two is sent.
  const file = document.querySelector("#submit-form input[type=file]");
  const text = document.querySelector("#submit-form textarea");
  if (file && text) {
    file.addEventListener("change", () => {
      if (file.files.length) text.value = "";
    });
  }
});
