package site

import (
	"fmt"
	"html"
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scan"
	"github.com/fp8lab/fp8lab/scan/report"
	"github.com/fp8lab/fp8lab/viz"
)

// The pages that list the scenes are generated from viz's catalog: a scene
// added there appears in the navigation of every page and as a card on the
// home page, with no template syntax left over. No browser needed.
func TestPagesListEveryScene(t *testing.T) {
	read := func(name string) string {
		b, err := fs.ReadFile(FS(), name)
		require.NoError(t, err, name)
		return html.UnescapeString(string(b))
	}
	index, scene, scanPage := read("index.html"), read("scene.html"), read("scan.html")
	for _, page := range []string{index, scene, scanPage, read("scan-report.css")} {
		assert.NotContains(t, page, "{{")
	}
	// The navigation is one template: every page has the same links, the
	// Scan page once, marked as the current page on the Scan page only.
	for _, page := range []string{index, scene, scanPage} {
		assert.Equal(t, 1, strings.Count(page, `href="scan.html"`)-strings.Count(page, `<a href="scan.html">Scan a checkpoint</a>`))
	}
	assert.Contains(t, scanPage, `<li><a href="scan.html" aria-current="page">`)
	assert.NotContains(t, index+scene, `href="scan.html" aria-current`)
	infos := viz.Scenes()
	require.NotEmpty(t, infos)
	for _, in := range infos {
		s, err := viz.New(in.Name)
		require.NoError(t, err)
		nav := `<li><a href="scene.html?name=` + in.Name + `">` + in.Label + `</a></li>`
		assert.Contains(t, index, nav, "home navigation lacks %s", in.Name)
		assert.Contains(t, scene, nav, "scene page navigation lacks %s", in.Name)
		assert.Contains(t, scanPage, nav, "Scan page navigation lacks %s", in.Name)
		// The Scan page offers to open a tensor in the scenes that can show one.
		_, loader := s.(viz.TensorLoader)
		assert.Equal(t, loader, strings.Contains(scanPage, `<button type="button" data-scene="`+in.Name+`">`), "Scan page: %s", in.Name)
		card := `data-scene="` + in.Name + `"`
		assert.Equal(t, 1, strings.Count(index, card), "home page cards: %s", in.Name)
		assert.Contains(t, index, "<strong>"+s.Title()+"</strong><span>"+in.Summary+"</span>", in.Name)
	}
	assert.Equal(t, len(infos), strings.Count(index, `class="scene-card"`), "one card per scene, no more")
	// The generated pages are what a static export writes and what serve
	// serves: Stat agrees with the content.
	st, err := fs.Stat(FS(), "index.html")
	require.NoError(t, err)
	b, err := fs.ReadFile(FS(), "index.html")
	require.NoError(t, err)
	assert.Equal(t, int64(len(b)), st.Size())
}

// The Scan page's choices are package scan's: every recipe, the default
// ones checked; the default format and SQNR threshold; and the report's
// style sheet is scan/report's.
func TestScanPageChoicesComeFromScan(t *testing.T) {
	b, err := fs.ReadFile(FS(), "scan.html")
	require.NoError(t, err)
	page := string(b)
	defaults := map[string]bool{}
	for _, r := range scan.DefaultRecipes() {
		defaults[r.Name] = true
	}
	for _, r := range scan.Recipes() {
		box := `<input type="checkbox" name="recipe" value="` + r.Name + `"`
		assert.Contains(t, page, box, r.Name)
		assert.Equal(t, defaults[r.Name], strings.Contains(page, box+" checked>"), r.Name)
	}
	assert.Contains(t, page, `id="scan-formats" value="`+fp8.E4M3FN.Name()+`"`)
	for _, l := range scan.Layouts {
		assert.Contains(t, page, `<option value="`+l.String()+`">`+l.String()+": "+l.Rows()+"</option>", l)
	}
	assert.Contains(t, page, fmt.Sprintf(`id="scan-min-sqnr" value="%v"`, scan.DefaultMinSQNR))
	css, err := fs.ReadFile(FS(), "scan-report.css")
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(string(css), report.CSS()))
}
