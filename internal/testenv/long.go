package testenv

import (
	"os"
	"testing"
)

// LongEnv is the environment variable that asks for the long tests.
const LongEnv = "FP8LAB_LONG"

// Long reports whether the long tests were asked for, with FP8LAB_LONG=1
// (go tool task test-long sets it). It is fp8lab's one switch between the
// default suite and the long one: a test that has an exhaustive or slow
// part runs it only when Long is true, and runs its small, quick part
// otherwise. The -short flag is not consulted: go tool task test passes it,
// but the default suite is what runs without FP8LAB_LONG, -short or not.
// Values other than "", "0" and "false" count as set.
func Long() bool {
	v := os.Getenv(LongEnv)
	return v != "" && v != "0" && v != "false"
}

// SkipUnlessLong skips tb, saying why the test is long, unless Long.
func SkipUnlessLong(tb testing.TB, why string) {
	tb.Helper()
	if !Long() {
		tb.Skipf("long test (%s): runs with %s=1 (go tool task test-long)", why, LongEnv)
	}
}
