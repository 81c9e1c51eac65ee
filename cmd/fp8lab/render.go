package main

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/internal/cmdline"
	"github.com/fp8lab/fp8lab/internal/outfile"
	"github.com/fp8lab/fp8lab/viz"
)

func init() {
	commands["render"] = command{"render a visualization to PNG: " + strings.Join(viz.Names(), ", "), runRender}
}

// paramFlags collects repeated --param name=value flags.
type paramFlags map[string]string

// String implements flag.Value.
func (p paramFlags) String() string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k+"="+p[k])
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

// Set implements flag.Value.
func (p paramFlags) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(k) == "" {
		return fmt.Errorf("want name=value, got %q", s)
	}
	p[strings.TrimSpace(k)] = v
	return nil
}

// sceneHelp lists the scenes and their parameters.
func sceneHelp(w io.Writer) {
	fmt.Fprintln(w, "\nScenes and their parameters (--param name=value):")
	for _, name := range viz.Names() {
		s, err := viz.New(name)
		if err != nil {
			continue
		}
		fmt.Fprintf(w, "\n  %-12s %s\n", name, s.Title())
		for _, p := range s.Params() {
			var dom string
			switch p.Kind {
			case viz.ParamChoice:
				dom = strings.Join(p.Options, "|")
			case viz.ParamNumber, viz.ParamInt:
				dom = fmt.Sprintf("%s %s..%s", p.Kind, strconv.FormatFloat(p.Min, 'f', -1, 64), strconv.FormatFloat(p.Max, 'f', -1, 64))
			default:
				dom = string(p.Kind)
			}
			def := p.Default
			if def == "" {
				def = `""`
			}
			fmt.Fprintf(w, "      %-16s %s (default %s)\n", p.Name, dom, def)
			if p.Help != "" {
				fmt.Fprintf(w, "      %-16s %s\n", "", p.Help)
			}
		}
	}
}

func runRender(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := prog.Flags("render", "SCENE [--param name=value ...] [--tensor FILE] [--width W --height H] -o out.png [--json]", stderr)
	params := paramFlags{}
	fs.Var(params, "param", "set a scene parameter, name=value (repeatable)")
	fs.Var(params, "p", "shorthand for --param")
	width := fs.Int("width", 1280, "picture width in pixels")
	height := fs.Int("height", 720, "picture height in pixels")
	out := fs.String("o", "", "output PNG file ('-' for stdout)")
	asJSON := fs.Bool("json", false, "print the numbers the scene shows (its facts) as JSON")
	explain := fs.Bool("explain", false, "print the scene's explanation, computed from its facts")
	list := fs.Bool("list", false, "list the scenes and their parameters")
	tensorFile := fs.String("tensor", "", "a .npy or CSV tensor for the scene to show (scenes "+strings.Join(viz.TensorScenes(), ", ")+")")
	maxBytes := maxBytesFlag(fs)
	// -h lists every scene with its parameters; a flag error only names
	// the scenes.
	help := false
	for _, a := range args {
		if a == "-h" || a == "--help" || a == "-help" {
			help = true
		}
	}
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		if help {
			sceneHelp(stderr)
			return
		}
		fmt.Fprintln(stderr, "\nScenes: "+strings.Join(viz.Names(), ", ")+" (fp8lab render --list shows their parameters)")
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if *list {
		fmt.Fprintln(stdout, "Scenes: "+strings.Join(viz.Names(), ", "))
		sceneHelp(stdout)
		return nil
	}
	if len(pos) != 1 {
		return cmdline.Usagef("render needs one SCENE (%s); see fp8lab render --help", strings.Join(viz.Names(), ", "))
	}
	if *out == "" && !*asJSON && !*explain {
		return cmdline.Usagef("render needs -o FILE.png (or --json for the facts alone, --explain for the explanation)")
	}
	if *out == "-" && (*asJSON || *explain) {
		return cmdline.Usagef("-o - and --json or --explain all write to stdout; pick one")
	}
	if *asJSON && *explain {
		return cmdline.Usagef("--json and --explain both write to stdout; pick one")
	}
	if *out != "" {
		if err := outfile.Check(*out); err != nil {
			return err
		}
	}
	scene, err := viz.New(pos[0])
	if err != nil {
		return err
	}
	if _, ok := params["file"]; ok {
		return cmdline.Usagef("scenes take no file paths: give the tensor with --tensor FILE")
	}
	if *tensorFile != "" {
		loader, ok := scene.(viz.TensorLoader)
		if !ok {
			return cmdline.Usagef("scene %s shows no tensor from a file (scenes %s do)", pos[0], strings.Join(viz.TensorScenes(), ", "))
		}
		t, err := readTensor(*tensorFile, *maxBytes, "")
		if err != nil {
			return err
		}
		if err := loader.LoadTensor(t); err != nil {
			return fmt.Errorf("%s: %w", *tensorFile, err)
		}
	}
	if err := viz.SetAll(scene, params); err != nil {
		return err
	}
	img, err := viz.RenderScene(scene, *width, *height)
	if err != nil {
		return err
	}
	if *out != "" {
		var buf bytes.Buffer
		if err := viz.WritePNG(&buf, img); err != nil {
			return err
		}
		if err := outfile.Write(*out, stdout, buf.Bytes()); err != nil {
			return err
		}
	}
	if *asJSON {
		return cmdline.WriteJSON(stdout, scene.Facts())
	}
	if *explain {
		_, err := fmt.Fprintln(stdout, strings.Join(scene.Explain().Paragraphs(), "\n\n"))
		return err
	}
	return nil
}
