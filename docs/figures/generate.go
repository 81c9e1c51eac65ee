//go:build ignore

// Generate renders every playground scene with `fp8lab render` into
// docs/figures/SCENE.png (1280×720, default parameters), the slides-ready
// figures of the workshop. Run it from the repository root:
//
//	go run docs/figures/generate.go
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/fp8lab/fp8lab/viz"
)

func main() {
	if err := generate(); err != nil {
		fmt.Fprintln(os.Stderr, "figures:", err)
		os.Exit(1)
	}
}

func run(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}

func generate() error {
	tmp, err := os.MkdirTemp("", "fp8lab-figures")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "fp8lab")
	// Build once, then render each scene (faster than go run per scene).
	if err := run("go", "build", "-o", bin, "./cmd/fp8lab"); err != nil {
		return fmt.Errorf("build fp8lab (run from the repository root): %w", err)
	}
	dir := filepath.Join("docs", "figures")
	for _, scene := range viz.Names() {
		out := filepath.Join(dir, scene+".png")
		if err := run(bin, "render", scene, "-o", out, "--width", "1280", "--height", "720"); err != nil {
			return fmt.Errorf("render %s: %w", scene, err)
		}
		fmt.Println("wrote", out)
	}
	return nil
}
