// Instant stepping for the replay page and its embed.
//
// The server renders every step at ?step=N, so the page works without this file.
// Seeing every hand, the stage of every step is fetched once (GET /r/<id>/steps, the same
// templates) and swapped in place: links, the slider, the keyboard and a swipe on the table
// change the step without a round trip, and the address bar follows (history.replaceState).
// Playing as one seat, nothing is fetched ahead: each step is asked for when the user goes
// to it (the page of that step, swapped in), so the future never reaches the browser early.
(function () {
  "use strict";

  var root = document.getElementById("replay");
  if (!root || !root.dataset.stepsUrl) {
    return;
  }
  var oneSeat = root.dataset.mode === "seat";
  var stages = null; // all hands: step index -> stage element, once fetched
  var pages = {}; // one seat: URL -> the replay element of that page, once visited
  var pending = null; // a step asked for before the stages arrived
  var timer = null;
  var SPEED_KEY = "belote.autoplay-ms";

  function holder() {
    return document.getElementById("stage");
  }

  function stage() {
    var h = holder();
    return h ? h.querySelector(".replay-stage") : null;
  }

  function current() {
    var s = stage();
    return s ? parseInt(s.dataset.step, 10) : 0;
  }

  function last() {
    var s = stage();
    return s ? parseInt(s.dataset.last, 10) : 0;
  }

  function clamp(step) {
    return Math.max(0, Math.min(step, last()));
  }

  function announce() {
    var announcer = document.getElementById("step-announcer");
    var label = document.getElementById("step-label");
    if (announcer && label) { // screen readers hear the new step
      announcer.textContent = label.textContent;
    }
  }

  function refocus(role) {
    if (role) { // keep the keyboard user's place: the same control in the new stage
      var same = root.querySelector('[data-role="' + role + '"]');
      if (same) {
        same.focus();
      }
    }
  }

  function focusedRole() {
    var active = document.activeElement;
    return active && root.contains(active) ? active.dataset.role : null;
  }

  // --- all hands: every stage fetched once ---------------------------------------------

  function go(step) {
    step = clamp(step);
    if (oneSeat) {
      visit(stepUrl(step));
      return;
    }
    if (!stages) {
      pending = step;
      return;
    }
    var next = stages[step];
    if (!next || step === current()) {
      return;
    }
    var role = focusedRole();
    holder().replaceChildren(document.importNode(next, true));
    if (window.history && window.history.replaceState) {
      window.history.replaceState(null, "", next.dataset.url);
    }
    announce();
    refocus(role);
    follow(step);
    if (step >= last()) {
      stop();
    }
  }

  // What stays beside the stage follows the step: the current move of the move list, the
  // links that keep the step (views, permalink, embed), the step the "Analyse" form returns to.
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
    var links = root.querySelectorAll("a[data-follow]");
    for (var j = 0; j < links.length; j++) {
      var url = new URL(links[j].href, window.location.href);
      url.searchParams.set(links[j].dataset.follow || "step", String(step)); // data-follow="upto": the copy link
      links[j].href = url.pathname + url.search;
    }
    var field = root.querySelector('input[data-role="analyse-step"]');
    if (field) {
      field.value = String(step);
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

  // --- one seat: each step's page asked for when visited --------------------------------

  function visit(href) {
    var url = new URL(href, window.location.href);
    var key = url.pathname + url.search;
    var role = focusedRole();
    var show = function (fresh) {
      root.replaceChildren.apply(root, Array.prototype.map.call(fresh.childNodes, function (node) {
        return document.importNode(node, true);
      }));
      if (window.history && window.history.replaceState) {
        window.history.replaceState(null, "", key);
      }
      showAutoplay();
      announce();
      refocus(role);
      if (current() >= last()) {
        stop();
      }
    };
    if (pages[key]) {
      show(pages[key]);
      return;
    }
    fetch(key, {credentials: "same-origin", headers: {"Accept": "text/html"}})
      .then(function (response) {
        if (!response.ok) {
          throw new Error("step: HTTP " + response.status);
        }
        return response.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("replay");
        if (!fresh) {
          throw new Error("step: no replay");
        }
        pages[key] = fresh;
        show(fresh);
      })
      .catch(function () {
        window.location.assign(key); // the server renders it: a plain page load
      });
  }

  // --- navigation -----------------------------------------------------------------------

  function nextTrick(step) {
    var link = root.querySelector('[data-role="next-trick"]');
    return link ? parseInt(link.dataset.step, 10) : step;
  }

  function previousTrick(step) {
    var link = root.querySelector('[data-role="prev-trick"]');
    return link ? parseInt(link.dataset.step, 10) : step;
  }

  function nextFinding() {
    var link = root.querySelector('[data-role="next-finding"]');
    return link ? parseInt(link.dataset.step, 10) : null;
  }

  function stepUrl(step) {
    var url = new URL(window.location.href);
    url.searchParams.set("step", String(step));
    url.searchParams.delete("guess");
    url.hash = "";
    return url.toString();
  }

  function move(to) {
    if (to === null) {
      return;
    }
    if (oneSeat || stages) {
      go(to);
    } else {
      window.location.assign(stepUrl(clamp(to)));
    }
  }

  // --- autoplay ---------------------------------------------------------------------------

  function autoplayButton() {
    return document.getElementById("autoplay");
  }

  function speed() {
    var select = document.getElementById("autoplay-speed");
    var ms = select ? parseInt(select.value, 10) : 1000;
    return ms > 0 ? ms : 1000;
  }

  function stop() {
    if (timer !== null) {
      window.clearInterval(timer);
      timer = null;
    }
    var button = autoplayButton();
    if (button) {
      button.setAttribute("aria-pressed", "false");
      button.textContent = "▶ Autoplay";
    }
  }

  function start() {
    timer = window.setInterval(function () {
      go(current() + 1);
    }, speed());
    var button = autoplayButton();
    if (button) {
      button.setAttribute("aria-pressed", "true");
      button.textContent = "⏸ Pause";
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
    start();
  }

  function showAutoplay() {
    var button = autoplayButton();
    if (!button) {
      return;
    }
    button.parentNode.hidden = false;
    var select = document.getElementById("autoplay-speed");
    var saved = null;
    try {
      saved = window.localStorage.getItem(SPEED_KEY);
    } catch (e) {
      saved = null; // storage refused (private mode): the default speed
    }
    if (select && saved && select.querySelector('option[value="' + saved + '"]')) {
      select.value = saved;
    }
    if (timer !== null) { // a page swapped in while playing
      button.setAttribute("aria-pressed", "true");
      button.textContent = "⏸ Pause";
    }
  }

  // --- events (delegated: in the one-seat view the whole replay is swapped) -----------------

  root.addEventListener("click", function (event) {
    if (!event.target.closest) {
      return;
    }
    if (event.target.closest("#autoplay")) {
      toggleAutoplay();
      return;
    }
    var line = event.target.closest('a[data-role="line"]');
    if (line) { // a finding's line: open the record's text where it is
      var text = document.getElementById("record-text");
      if (text) {
        text.open = true;
      }
      return;
    }
    var link = event.target.closest("a[data-step]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) {
      return;
    }
    if (oneSeat) {
      event.preventDefault();
      stop();
      visit(link.href);
      return;
    }
    var inPage = holder().contains(link) || link.closest(".move-list");
    if (!inPage || !stages) {
      return;
    }
    event.preventDefault();
    stop();
    go(parseInt(link.dataset.step, 10));
  });

  root.addEventListener("change", function (event) {
    if (event.target.id === "autoplay-speed") {
      try {
        window.localStorage.setItem(SPEED_KEY, event.target.value);
      } catch (e) {
        // not kept: the choice still holds for this page
      }
      if (timer !== null) {
        window.clearInterval(timer);
        start();
      }
    }
  });

  root.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches('input[type="range"][name="step"]') && !oneSeat && stages) {
      go(parseInt(event.target.value, 10));
    }
  });

  root.addEventListener("submit", function (event) {
    var slider = event.target.querySelector ? event.target.querySelector('input[name="step"]') : null;
    if (slider && (stages || oneSeat)) {
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
      if (autoplayButton() && tag !== "button" && tag !== "a" && tag !== "summary") {
        event.preventDefault();
        toggleAutoplay();
      }
      return;
    default:
      return;
    }
    if (to === null || clamp(to) === step) {
      return;
    }
    event.preventDefault();
    stop();
    move(to);
  });

  // A swipe on the table: left for the next step, right for the previous one.
  var touch = null;
  root.addEventListener("touchstart", function (event) {
    var table = event.target.closest ? event.target.closest('[data-role="table"]') : null;
    touch = table && event.touches.length === 1 ? {x: event.touches[0].clientX, y: event.touches[0].clientY} : null;
  }, {passive: true});
  root.addEventListener("touchend", function (event) {
    if (!touch || !event.changedTouches.length) {
      return;
    }
    var dx = event.changedTouches[0].clientX - touch.x;
    var dy = event.changedTouches[0].clientY - touch.y;
    touch = null;
    if (Math.abs(dx) < 40 || Math.abs(dx) < 1.5 * Math.abs(dy)) {
      return; // a tap or a scroll, not a swipe
    }
    stop();
    move(current() + (dx < 0 ? 1 : -1));
  }, {passive: true});

  showAutoplay();
  if (!oneSeat) {
    load();
  }
}());
