package viz

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGranularityFinerScalesProtectSmallRows(t *testing.T) {
	s, _, err := Render("granularity", nil, 640, 360)
	require.NoError(t, err)
	f := s.Facts()
	// Whole-tensor SQNR barely differs, the worst row tells the story.
	assert.InDelta(t, factFloat(t, f, "tensor.sqnr_db"), factFloat(t, f, "row.sqnr_db"), 3)
	assert.Greater(t, factFloat(t, f, "row.worst_row_db"), factFloat(t, f, "tensor.worst_row_db")+10)
	assert.Greater(t, factFloat(t, f, "tile1x128.worst_row_db"), factFloat(t, f, "block128.worst_row_db")+10)
	assert.Greater(t, factFloat(t, f, "tensor.underflow"), factFloat(t, f, "row.underflow"))
	assert.Equal(t, "1", f["tensor.scales"])
	assert.Equal(t, "256", f["row.scales"])
	assert.Equal(t, "512", f["tile1x128.scales"])
	assert.Equal(t, "4", f["block128.scales"])
	assert.Equal(t, "2048", f["mx.scales"])
	assert.Equal(t, "4096", f["nvfp4.scales"])
	assert.Equal(t, "E2M1", f["nvfp4.format"])
	// Without outliers every granularity does about as well.
	require.NoError(t, s.Set("outlier_rows", "0"))
	f = s.Facts()
	assert.InDelta(t, factFloat(t, f, "tensor.worst_row_db"), factFloat(t, f, "row.worst_row_db"), 3)
}
