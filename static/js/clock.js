/* The round clock: every element with data-clock counts down to its data-ends (an ISO time
 * written by the server when the round started), as minutes:seconds, and says data-over when
 * the time is up. The server's text ("until 20:40") stays when scripts are off. The clock reads
 * the phone's or TV's own time, so a device whose clock is wrong shows it wrong by as much. */
(function () {
  "use strict";

  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function tick() {
    var clocks = document.querySelectorAll("[data-clock]");
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i];
      var ends = Date.parse(clock.getAttribute("data-ends"));
      var out = clock.querySelector("[data-clock-left]");
      if (isNaN(ends) || !out) continue;
      var left = Math.round((ends - Date.now()) / 1000);
      if (left <= 0) {
        out.textContent = clock.getAttribute("data-over");
        clock.classList.add("is-over");
      } else {
        out.textContent = Math.floor(left / 60) + ":" + pad(left % 60);
        clock.classList.remove("is-over");
      }
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    tick();
    window.setInterval(tick, 1000);
  });
})();
