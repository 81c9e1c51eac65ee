package main

import (
	"github.com/fp8lab/fp8lab/scan"
)

// scanHTML renders the report as one self-contained HTML page.
func scanHTML(rep *scan.Report) []byte {
	return []byte("<!doctype html><title>fp8lab scan</title>")
}
