// Instant stepping for the replay page and its embed.
//
// The server renders every step at ?step=N, so the page works without this file.
// Here the stage of every step is fetched once (GET /r/<id>/steps, the same templates)
// and swapped in place: links, the slider and the keyboard change the step without a
// round trip, and the address bar follows (history.replaceState) so it can be shared.
(function () {
  "use strict";

  var root = document.getElementById("replay");
  var holder = document.getElementById("stage");
  if (!root || !holder || !root.dataset.stepsUrl) {
    return;
  }
  var stages = null; // step index -> stage element, once fetched
  var pending = null; // a step asked for before the stages arrived
  var timer = null;
  var autoplay = document.getElementById("autoplay");
  var AUTOPLAY_MS = 1000;

  function current() {
    var stage = holder.querySelector(".replay-stage");
    return stage ? parseInt(stage.dataset.step, 10) : 0;
  }

  function last() {
    var stage = holder.querySelector(".replay-stage");
    return stage ? parseInt(stage.dataset.last, 10) : 0;
  }

  function clamp(step) {
    return Math.max(0, Math.min(step, last()));
  }

  function go(step) {
    step = clamp(step);
    if (!stages) {
      pending = step;
      return;
    }
    var next = stages[step];
    if (!next || step === current()) {
      return;
    }
    var active = document.activeElement;
    var role = active && holder.contains(active) ? active.dataset.role : null;
    holder.replaceChildren(document.importNode(next, true));
    if (window.history && window.history.replaceState) {
      window.history.replaceState(null, "", next.dataset.url);
    }
    var announcer = document.getElementById("step-announcer");
    var label = holder.querySelector("#step-label");
    if (announcer && label) { // screen readers hear the new step
      announcer.textContent = label.textContent;
    }
    if (role) { // keep the keyboard user's place: the same control in the new stage
      var same = holder.querySelector('[data-role="' + role + '"]');
      if (same) {
        same.focus();
      }
    }
    follow(step);
    if (step >= last()) {
      stop();
    }
  }

  // What stays beside the stage follows the step: the current card of the move list, and the
  // step the "Analyse this deal" form comes back to.
  function follow(step) {
    var moves = root.querySelectorAll(".move-list a.move");
    for (var i = 0; i < moves.length; i++) {
      var here = parseInt(moves[i].dataset.step, 10) === step;
      moves[i].classList.toggle("current", here);
      if (here) {
        moves[i].setAttribute("aria-current", "step");
      } else {
        moves[i].removeAttribute("aria-current");
      }
    }
    var field = root.querySelector('input[data-role="analyse-step"]');
    if (field) {
      field.value = String(step);
    }
  }

  function tricks() {
    var ends = [];
    var links = holder.querySelectorAll(".trick-jumps a[data-step]");
    for (var i = 0; i < links.length; i++) {
      ends.push(parseInt(links[i].dataset.step, 10));
    }
    return ends;
  }

  function nextTrick(step) {
    var ends = tricks();
    for (var i = 0; i < ends.length; i++) {
      if (ends[i] > step) {
        return ends[i];
      }
    }
    return last();
  }

  function previousTrick(step) {
    var ends = tricks();
    for (var i = ends.length - 1; i >= 0; i--) {
      if (ends[i] < step) {
        return ends[i];
      }
    }
    return 0;
  }

  function nextFinding() {
    var link = holder.querySelector('[data-role="next-finding"]');
    return link ? parseInt(link.dataset.step, 10) : null;
  }

  function stop() {
    if (timer !== null) {
      window.clearInterval(timer);
      timer = null;
    }
    if (autoplay) {
      autoplay.setAttribute("aria-pressed", "false");
      autoplay.textContent = "▶ Autoplay";
    }
  }

  function toggleAutoplay() {
    if (timer !== null) {
      stop();
      return;
    }
    if (current() >= last()) {
      go(0);
    }
    timer = window.setInterval(function () {
      go(current() + 1);
    }, AUTOPLAY_MS);
    if (autoplay) {
      autoplay.setAttribute("aria-pressed", "true");
      autoplay.textContent = "⏸ Pause";
    }
  }

  function load() {
    fetch(root.dataset.stepsUrl, {credentials: "same-origin", headers: {"Accept": "text/html"}})
      .then(function (response) {
        if (!response.ok) {
          throw new Error("steps: HTTP " + response.status);
        }
        return response.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var found = doc.querySelectorAll(".replay-stage");
        stages = [];
        for (var i = 0; i < found.length; i++) {
          stages[parseInt(found[i].dataset.step, 10)] = found[i];
        }
        root.classList.add("instant");
        if (pending !== null) {
          var step = pending;
          pending = null;
          go(step);
        }
      })
      .catch(function () {
        stages = null; // stay with plain links: every step still loads from the server
        root.classList.add("no-instant");
      });
  }

  root.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[data-step]") : null;
    var inPage = link && (holder.contains(link) || link.closest(".move-list"));
    if (!inPage || !stages || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    event.preventDefault();
    stop();
    go(parseInt(link.dataset.step, 10));
  });

  root.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches('input[type="range"][name="step"]') && stages) {
      go(parseInt(event.target.value, 10));
    }
  });

  root.addEventListener("submit", function (event) {
    var slider = event.target.querySelector ? event.target.querySelector('input[name="step"]') : null;
    if (slider && stages) {
      event.preventDefault();
      go(parseInt(slider.value, 10));
    }
  });

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    var tag = target && target.tagName ? target.tagName.toLowerCase() : "";
    if (tag === "input" || tag === "textarea" || tag === "select" || event.altKey || event.ctrlKey || event.metaKey) {
      return; // the slider and form fields keep their own keys
    }
    var step = current();
    var to = null;
    switch (event.key) {
    case "ArrowRight":
      to = event.shiftKey ? nextTrick(step) : step + 1;
      break;
    case "ArrowLeft":
      to = event.shiftKey ? previousTrick(step) : step - 1;
      break;
    case "Home":
      to = 0;
      break;
    case "End":
      to = last();
      break;
    case "n":
      to = nextFinding();
      break;
    case " ":
      if (autoplay && tag !== "button" && tag !== "a") {
        event.preventDefault();
        toggleAutoplay();
      }
      return;
    default:
      return;
    }
    if (to === null) {
      return;
    }
    event.preventDefault();
    stop();
    if (stages) {
      go(to);
    } else {
      window.location.assign(stepUrl(clamp(to)));
    }
  });

  // Before the stages arrive (or if they never do), keys still work by loading the step.
  function stepUrl(step) {
    var url = new URL(window.location.href);
    url.searchParams.set("step", String(step));
    return url.toString();
  }

  if (autoplay) {
    autoplay.addEventListener("click", toggleAutoplay);
    autoplay.parentNode.hidden = false;
  }
  load();
}());
