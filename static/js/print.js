// The "Print" buttons of the pages made for paper ([data-print]). They stay hidden
// without JavaScript, where the page tells the player to use the browser's Print command.
// A file of this site, as the Content-Security-Policy requires (no inline script).
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("button[data-print]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      window.print();
    });
  });
});
