// The replay page's "make a puzzle from this moment": the form's version follows the step shown
// (the replay's range input, static/js/play-replay.js; a step's index is its game version).
const range = document.getElementById("replay-range");
const field = document.getElementById("replay-puzzle-version");
if (range && field) {
  const follow = () => { field.value = range.value; };
  range.addEventListener("input", follow);
  range.addEventListener("change", follow);
  document.addEventListener("click", () => setTimeout(follow, 0), true);
  field.form.addEventListener("submit", follow);
  follow();
}
