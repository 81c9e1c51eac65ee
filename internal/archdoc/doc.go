// Package archdoc holds no code, only tests that keep docs/architecture.md true:
// its package diagram is generated from `go list` and compared with the file
// (run `go test ./internal/archdoc -update` to regenerate it), and the import
// rules the document states are checked on the real import graph.
package archdoc
