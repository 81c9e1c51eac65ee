package testenv

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLongReadsOnlyTheEnvironment(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "false": false, "1": true, "true": true, "yes": true} {
		t.Setenv(LongEnv, v)
		assert.Equal(t, want, Long(), "%s=%q", LongEnv, v)
	}
}

func TestSkipUnlessLong(t *testing.T) {
	t.Setenv(LongEnv, "")
	ran := false
	t.Run("short", func(t *testing.T) {
		SkipUnlessLong(t, "test")
		ran = true
	})
	assert.False(t, ran, "skipped without FP8LAB_LONG")
	t.Setenv(LongEnv, "1")
	t.Run("long", func(t *testing.T) {
		SkipUnlessLong(t, "test")
		ran = true
	})
	assert.True(t, ran, "runs with FP8LAB_LONG=1")
}
