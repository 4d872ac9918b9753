/* The header's links where they are one line that scrolls sideways (a board page on a phone,
 * static/css/play.css). It marks on the <nav> which way more links lie, data-more="left right", which
 * the CSS draws as a fade and an arrow at that edge over the cut link; a tap on an arrow scrolls the
 * line by most of its width. On load the current page's link is scrolled into the line, and a link
 * that takes the focus (Tab) is scrolled clear of the arrows. The links stay plain links in one <nav>:
 * Tab reaches each and a screen reader reads them all; the arrows are drawn, not announced.
 * Where the links wrap (every other page, the desktop) nothing overflows and nothing is marked.
 */
function start() {  var nav = document.querySelector(".site-nav");
  if (!nav) return;

  function mark() {
    var max = nav.scrollWidth - nav.clientWidth;
    var more = [];
    if (max > 1) {
      if (nav.scrollLeft > 1) more.push("left");
      if (nav.scrollLeft < max - 1) more.push("right");
    }
    var value = more.join(" ");
    if ((nav.getAttribute("data-more") || "") !== value) {
      if (value) nav.setAttribute("data-more", value);
      else nav.removeAttribute("data-more");
    }
  }

  // Scroll the line so that `link` lies clear of the arrows (the nav's scroll-padding), where it can:
  // the browser's own scrolling on focus leaves a partly visible link where it is.
  function reveal(link) {
    if (nav.scrollWidth <= nav.clientWidth + 1) return;
    var box = nav.getBoundingClientRect();
    var r = link.getBoundingClientRect();
    var style = getComputedStyle(nav);
    var padLeft = parseFloat(style.scrollPaddingLeft) || 0;
    var padRight = parseFloat(style.scrollPaddingRight) || 0;
    if (r.left < box.left + padLeft) nav.scrollLeft -= box.left + padLeft - r.left;
    else if (r.right > box.right - padRight) nav.scrollLeft += Math.min(r.right - (box.right - padRight), r.left - (box.left + padLeft));
  }

  nav.addEventListener("scroll", mark, {passive: true});
  window.addEventListener("resize", mark);
  if (window.ResizeObserver) new ResizeObserver(mark).observe(nav);
  // a tap on an arrow (the nav's own ::before or ::after, not a link) scrolls that way
  nav.addEventListener("click", function (e) {
    if (e.target !== nav || !nav.hasAttribute("data-more")) return;
    var box = nav.getBoundingClientRect();
    var edge = Math.min(48, box.width / 4);
    var more = nav.getAttribute("data-more");
    var by = nav.clientWidth * 0.7;
    var behavior = window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
    if (e.clientX > box.right - edge && more.indexOf("right") >= 0) nav.scrollBy({left: by, behavior: behavior});
    else if (e.clientX < box.left + edge && more.indexOf("left") >= 0) nav.scrollBy({left: -by, behavior: behavior});
  });
  nav.addEventListener("focusin", function (e) { if (e.target.closest("a")) reveal(e.target.closest("a")); });
  var current = nav.querySelector("[aria-current=page]");
  if (current) reveal(current);
  mark();
}

start();
