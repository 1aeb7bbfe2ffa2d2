// aleph-mem's page works without this: "/" focuses the search box, and a form's button is
// disabled once pressed so a double click sends it once.
document.addEventListener("keydown", (e) => {
  const box = document.querySelector("form.search input");
  if (e.key === "/" && box && document.activeElement !== box) { e.preventDefault(); box.focus(); }
});
document.addEventListener("submit", (e) => {
  const button = e.target.querySelector("button");
  if (button && e.target.method === "post") setTimeout(() => { button.disabled = true; }, 0);
});
