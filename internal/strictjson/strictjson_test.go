package strictjson

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type point struct {
	X, Y  float64
	Label string `json:"label"`
	Tags  []struct {
		Name string `json:"name"`
	} `json:"tags"`
}

func TestDecode(t *testing.T) {
	var p point
	require.NoError(t, Decode([]byte(` {"X": 1, "Y": 2, "label": "a\"}b", "tags": [{"name": "x"}, {"name": "x"}]} `), &p))
	assert.Equal(t, 2.0, p.Y)
	assert.Equal(t, `a"}b`, p.Label)
	for doc, want := range map[string]string{
		`null`:                                   "null",
		` null `:                                 "null",
		``:                                       "no JSON value",
		`{"X": 1`:                                "cut short",
		`{"X": 1} {"X": 2}`:                      "data after the JSON value (byte 8)",
		`{"X": 1}]`:                              "data after the JSON value (byte 8)",
		`{"X": }`:                                "not JSON at byte 7",
		`{"X": 1, "X": 2}`:                       `key "X" appears twice`,
		`{"X": 1, "\u0058": 2}`:                  `key "X" appears twice`,
		`{"tags": [{"name": "a", "name": "b"}]}`: `key "name" appears twice`,
		`{"Z": 1}`:                               `unknown field "Z"`,
		`[1]`:                                    "cannot unmarshal array",
	} {
		err := Decode([]byte(doc), &point{})
		require.Error(t, err, doc)
		assert.ErrorContains(t, err, want, doc)
	}
	// The same key in sibling and nested objects is fine.
	var m map[string]any
	require.NoError(t, Decode([]byte(`{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}], "c": "a"}`), &m))
}
