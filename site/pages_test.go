package site

import (
	"html"
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	index, scene := read("index.html"), read("scene.html")
	for _, page := range []string{index, scene} {
		assert.NotContains(t, page, "{{")
	}
	infos := viz.Scenes()
	require.NotEmpty(t, infos)
	for _, in := range infos {
		s, err := viz.New(in.Name)
		require.NoError(t, err)
		nav := `<li><a href="scene.html?name=` + in.Name + `">` + in.Label + `</a></li>`
		assert.Contains(t, index, nav, "home navigation lacks %s", in.Name)
		assert.Contains(t, scene, nav, "scene page navigation lacks %s", in.Name)
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
