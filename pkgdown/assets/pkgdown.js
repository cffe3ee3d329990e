/* fairproj's pkgdown.js: the table of contents, copy buttons and search of pkgdown's Bootstrap 5
   template, with no library beyond the jQuery and Bootstrap the site ships (nothing from a CDN). */
(function($) {
  $(function() {
    // "On this page": the second- and third-level headings of the main column
    var $toc = $("#toc");
    if ($toc.length) {
      var $list = $('<ul class="nav nav-pills flex-column"></ul>');
      $("main h2, main h3").not("[data-toc-skip]").each(function() {
        var $h = $(this), id = $h.attr("id") || $h.closest("section, div.section").attr("id");
        if (!id) return;
        var $a = $('<a class="nav-link"></a>').attr("href", "#" + id).text($h.text());
        if (this.tagName === "H3") $a.addClass("ms-3");
        $list.append($("<li class='nav-item'></li>").append($a));
      });
      if ($list.children().length) $toc.append($list); else $toc.closest("aside, div").hide();
    }

    // copy buttons on code blocks (the browser's clipboard API)
    if (navigator.clipboard) {
      $("div.sourceCode").each(function() {
        var block = this;
        var $b = $('<button type="button" class="btn btn-sm btn-outline-secondary btn-copy-ex">Copy</button>');
        $b.css({position: "absolute", right: "0.5rem", top: "0.5rem"});
        $b.on("click", function() {
          var text = $(block).find("pre").text().replace(/\n#>[^\n]*/g, "");
          navigator.clipboard.writeText(text).then(function() { $b.text("Copied"); });
        });
        $(block).css("position", "relative").prepend($b);
      });
    }

    // search: words of the query all found in a page section's title, heading or text
    var $input = $("#search-input");
    if ($input.length) {
      var index = null;
      var $menu = $('<div class="dropdown-menu show" style="display:none; max-height: 60vh; overflow-y: auto"></div>');
      $input.after($menu);
      var load = function() {
        if (index) return Promise.resolve(index);
        return fetch($input.data("search-index")).then(function(r) { return r.json(); })
          .then(function(d) { index = d; return d; });
      };
      $input.on("focus", load);
      $input.on("input", function() {
        var words = $input.val().toLowerCase().split(/\s+/).filter(function(w) { return w.length > 1; });
        if (!words.length) { $menu.hide(); return; }
        load().then(function(d) {
          var hits = d.filter(function(s) {
            var t = [s.title, s.what, s.text].join(" ").toLowerCase();
            return words.every(function(w) { return t.indexOf(w) >= 0; });
          }).slice(0, 20);
          $menu.empty();
          hits.forEach(function(s) {
            $menu.append($('<a class="dropdown-item"></a>').attr("href", s.path + (s.id ? "#" + s.id : ""))
              .text(s.title + (s.what && s.what !== s.title ? " > " + s.what : "")));
          });
          if (!hits.length) $menu.append('<span class="dropdown-item-text">No results</span>');
          $menu.show();
        });
      });
      $input.on("blur", function() { setTimeout(function() { $menu.hide(); }, 200); });
    }
  });
})(window.jQuery || window.$);
