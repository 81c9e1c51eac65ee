package workshop

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/fp8lab/fp8lab/viz"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sceneLink matches the playground's scene links in the workshop's texts.
var sceneLink = regexp.MustCompile(`http://127\.0\.0\.1:8080/scene[^\s)\]]*`)

// Every link from the workshop to a scene opens the page the site serves
// (scene.html) on a scene, with parameters it has and values it accepts and
// holds, as the scene page applies them.
func TestSceneLinksOpenTheirState(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(exercises, "*", "README.md"))
	require.NoError(t, err)
	files = append(files, "README.md")
	links := 0
	for _, f := range files {
		text, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, link := range sceneLink.FindAllString(string(text), -1) {
			links++
			u, err := url.Parse(link)
			require.NoError(t, err, link)
			assert.Equal(t, "/scene.html", u.Path, "%s: %s: the site serves scene pages as scene.html", f, link)
			q := u.Query()
			s, err := viz.New(q.Get("name"))
			require.NoError(t, err, "%s: %s", f, link)
			for k, v := range q {
				if k == "name" || k == "present" {
					continue
				}
				require.NoError(t, s.Set(k, v[0]), "%s: %s", f, link)
				got, err := s.Get(k)
				require.NoError(t, err)
				assert.Equal(t, v[0], got, "%s: %s", f, link)
			}
			assert.NotContains(t, s.Facts(), "error", "%s: %s", f, link)
		}
	}
	assert.Positive(t, links, "the workshop links to scenes")
}
