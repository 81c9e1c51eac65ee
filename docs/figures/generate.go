//go:build ignore

// Generate renders every playground scene with `fp8lab render` into
// docs/figures/SCENE.png (1280×720), the slides-ready figures of the
// workshop: default parameters, except where docs/figures/settings.json
// names others (the training scene's shipped runs, not an untrained live
// run). viz's TestFiguresAreCurrent renders the same. Run it from the
// repository root:
//
//	go run docs/figures/generate.go
package main

import (
	"encoding/json"
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
	b, err := os.ReadFile(filepath.Join(dir, "settings.json"))
	if err != nil {
		return err
	}
	var settings map[string]map[string]string
	if err := json.Unmarshal(b, &settings); err != nil {
		return fmt.Errorf("docs/figures/settings.json: %w", err)
	}
	for _, scene := range viz.Names() {
		out := filepath.Join(dir, scene+".png")
		args := []string{"render", scene, "-o", out, "--width", "1280", "--height", "720"}
		for k, v := range settings[scene] {
			args = append(args, "--param", k+"="+v)
		}
		if err := run(bin, args...); err != nil {
			return fmt.Errorf("render %s: %w", scene, err)
		}
		fmt.Println("wrote", out)
	}
	return nil
}
