package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/viz"
)

// The tabs derive from viz's catalog: every scene has a tab that shows it,
// and the digit keys reach the first nine in catalog order.
func TestEverySceneHasATab(t *testing.T) {
	names := viz.Names()
	require.NotEmpty(t, names)
	g, err := New(names[0], Options{})
	require.NoError(t, err)
	g.Snapshot(1280, 800)
	for i, name := range names {
		pt, ok := g.TabPoint(name)
		require.True(t, ok, "no tab for %s", name)
		g.Click(pt.X, pt.Y)
		assert.Equal(t, name, g.SceneName(), "tab %s", name)
		if i < 9 {
			g.Key(KeyDigit1 + Key(i))
			assert.Equal(t, name, g.SceneName(), "key %d", i+1)
		}
	}
}
