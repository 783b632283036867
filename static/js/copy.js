// A "copy" button: <button data-copy="ID" data-copied="Copied"> copies the text of the
// element ID (a textarea) to the clipboard, or selects it where the clipboard is refused.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    var said = function () {
      var before = button.textContent;
      button.textContent = button.getAttribute("data-copied") || before;
      setTimeout(function () { button.textContent = before; }, 2000);
    };
    var select = function () { field.focus(); field.select(); };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(field.value).then(said, select);
    } else {
      select();
    }
  });
})();
