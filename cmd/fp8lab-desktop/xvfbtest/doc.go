// Package xvfbtest holds the test that runs the desktop app under a
// virtual X server. It lives apart from cmd/fp8lab-desktop because a test
// binary of that package would link ebiten, whose init panics on Linux
// without a display; this test builds the real binary instead, runs its
// hidden --selftest mode under xvfb-run and checks the screenshots.
package xvfbtest
