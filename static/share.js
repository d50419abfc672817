// "Copy the record up to this step" (the replay's tools): the record's text cut at the step
// shown (GET /r/<id>.belote?upto=N, which replay.js keeps at the current step) is copied to the
// clipboard. Without the Clipboard API, or when the browser refuses, the link opens the text,
// as it does without JavaScript.
(function () {
  "use strict";

  function say(status, message) {
    if (!status) {
      return;
    }
    status.textContent = message;
    window.setTimeout(function () {
      if (status.textContent === message) {
        status.textContent = "";
      }
    }, 4000);
  }

  function copy(text) {
    // Safari lets a page write the clipboard only within the click: a ClipboardItem whose
    // content is still on its way is written now and filled in when the text arrives.
    if (window.ClipboardItem && navigator.clipboard.write) {
      try {
        var blob = text.then(function (value) {
          return new Blob([value], {type: "text/plain"});
        });
        return navigator.clipboard.write([new window.ClipboardItem({"text/plain": blob})])
          .catch(function () {
            return text.then(function (value) {
              return navigator.clipboard.writeText(value);
            });
          });
      } catch (e) {
        // a browser whose ClipboardItem takes no promise: the plain way below
      }
    }
    return text.then(function (value) {
      return navigator.clipboard.writeText(value);
    });
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest('a[data-role="copy-record"]') : null;
    if (!link || !navigator.clipboard || !window.fetch || event.ctrlKey || event.metaKey || event.shiftKey ||
        event.altKey) {
      return;
    }
    event.preventDefault();
    var href = link.href; // now: the step may move on while the text is fetched
    var step = new URL(href, window.location.href).searchParams.get("upto");
    var status = link.parentNode.querySelector('[data-role="copy-status"]');
    var text = fetch(href, {credentials: "same-origin"}).then(function (response) {
      if (!response.ok) {
        throw new Error("HTTP " + response.status);
      }
      return response.text();
    });
    copy(text).then(function () {
      say(status, "Copied the record up to step " + step + ".");
    }, function () {
      window.location.href = href; // the text itself, to copy by hand
    });
  });
})();
