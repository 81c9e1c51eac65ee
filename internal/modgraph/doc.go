// Package modgraph holds no code, only a test: a throwaway module that imports
// fp8lab/fp8 the way a user's program would, whose module graph must stay small.
//
// The developer tools (go-task) live in their own module, tools/, joined to the
// library by the go.work at the repository root; if a tool dependency ever leaks
// back into the root go.mod, every program that imports fp8lab inherits it, and
// the test here fails.
package modgraph
