// The regions that follow a battle as it is played ([data-live-region], polled by the
// hidden [data-live-poll] inside them, templates/_live_poll.html). htmx asks every few
// seconds; this file holds a poll back while the tab is hidden (the tab asks again as
// soon as it is shown) or while a form in the region has been changed and not sent, so
// a region is never replaced under a player's fingers. A file of this site, as the
// Content-Security-Policy requires (no inline script, and so no htmx event filter).
(function () {
  function region(element) {
    return element.closest ? element.closest("[data-live-region]") : null;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var poll = event.target;
    if (!poll.hasAttribute || !poll.hasAttribute("data-live-poll")) {
      return;
    }
    var around = region(poll);
    if (document.hidden || (around && around.hasAttribute("data-live-editing"))) {
      event.preventDefault();
    }
  });

  document.addEventListener("input", function (event) {
    var around = event.target.form && region(event.target);
    if (around) {
      around.setAttribute("data-live-editing", "");
    }
  });

  document.addEventListener("submit", function (event) {
    var around = region(event.target);
    if (around) {
      around.removeAttribute("data-live-editing");
    }
  });
})();
