// The replay page's "Make a puzzle from this moment": the link names the step shown (the replay's
// range input, static/js/play-replay.js; a step's index is its game version).
const range = document.getElementById("replay-range");
const link = document.getElementById("replay-puzzle");
if (range && link) {
  const base = link.getAttribute("href").split("?")[0];
  const follow = () => { link.setAttribute("href", `${base}?version=${range.value}`); };
  for (const kind of ["input", "change"]) range.addEventListener(kind, follow);
  document.getElementById("replay-controls").addEventListener("click", () => setTimeout(follow, 0));
  link.addEventListener("click", follow);
  follow();
}
