package site_test

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/viz"
)

// The workshop's links point at the playground as `go run ./cmd/fp8lab`
// serves it.
const (
	workshopDir  = "../docs/workshop"
	workshopHost = "127.0.0.1:8080"
)

// workshopLink is one playground link of docs/workshop, where it was found.
type workshopLink struct {
	where string // file:line
	line  string
	raw   string
}

var linkRe = regexp.MustCompile(`https?://` + regexp.QuoteMeta(workshopHost) + `[^\s)>\]"'` + "`" + `]*`)

// workshopLinks returns every playground link of the Markdown files under
// docs/workshop, exercises included.
func workshopLinks(t *testing.T) []workshopLink {
	t.Helper()
	var out []workshopLink
	err := filepath.WalkDir(workshopDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, raw := range linkRe.FindAllString(line, -1) {
				out = append(out, workshopLink{where: fmt.Sprintf("%s:%d", path, i+1), line: line, raw: raw})
			}
		}
		return nil
	})
	require.NoError(t, err)
	return out
}

// sceneLink reads a link to a scene page: the scene's name and the other
// parameters in the link's order. A link to the home page has no name.
func sceneLink(raw string) (name string, params [][2]string, err error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", nil, err
	}
	if u.Host != workshopHost {
		return "", nil, fmt.Errorf("host %s, want %s", u.Host, workshopHost)
	}
	if u.Path == "" || u.Path == "/" {
		if u.RawQuery != "" {
			return "", nil, fmt.Errorf("the home page takes no parameters")
		}
		return "", nil, nil
	}
	if u.Path != "/scene.html" && u.Path != "/scene" { // fp8lab serve finds scene.html for /scene too
		return "", nil, fmt.Errorf("path %s: a scene's page is /scene.html?name=…", u.Path)
	}
	for _, kv := range strings.Split(u.RawQuery, "&") {
		k, v, _ := strings.Cut(kv, "=")
		if k, err = url.QueryUnescape(k); err == nil {
			v, err = url.QueryUnescape(v)
		}
		if err != nil {
			return "", nil, err
		}
		if k == "name" {
			name = v
			continue
		}
		params = append(params, [2]string{k, v})
	}
	if name == "" {
		return "", nil, fmt.Errorf("no scene name")
	}
	return name, params, nil
}

// checkSceneLink checks a link against the scenes themselves, without a
// browser: the scene exists, it has every parameter the link names, takes
// each value (in the scene's order, then again those refused, as the page
// does), and keeps it as written, so that the page's controls can show it.
func checkSceneLink(raw string) error {
	name, params, err := sceneLink(raw)
	if err != nil || name == "" {
		return err
	}
	s, err := viz.New(name)
	if err != nil {
		return err
	}
	order := map[string]int{}
	for i, p := range s.Params() {
		order[p.Name] = i
	}
	pending := slices.Clone(params)
	for _, kv := range pending {
		if _, ok := order[kv[0]]; !ok {
			return fmt.Errorf("scene %s has no parameter %q", name, kv[0])
		}
	}
	slices.SortStableFunc(pending, func(a, b [2]string) int { return order[a[0]] - order[b[0]] })
	for len(pending) > 0 {
		var failed [][2]string
		var last error
		for _, kv := range pending {
			if err := s.Set(kv[0], kv[1]); err != nil {
				failed, last = append(failed, kv), err
			}
		}
		if len(failed) == len(pending) {
			return last
		}
		pending = failed
	}
	for _, kv := range params {
		if got, err := s.Get(kv[0]); err != nil || got != kv[1] {
			return fmt.Errorf("scene %s keeps %s=%q as %q (%v): write the link with the value the scene shows", name, kv[0], kv[1], got, err)
		}
	}
	return nil
}

// sceneMention finds a scene named in emphasis, as the workshop names the
// scenes it sends students to: *range* or **explorer**.
func sceneMention(line, name string) bool {
	return regexp.MustCompile(`\*\*?` + regexp.QuoteMeta(name) + `\*\*?`).MatchString(line)
}

// TestWorkshopLinks checks, without a browser, that every step of the
// workshop that names a scene links to it, and that every link opens a
// scene that has the parameters and takes the values it names.
func TestWorkshopLinks(t *testing.T) {
	links := workshopLinks(t)
	require.NotEmpty(t, links)
	scenes := map[string]bool{}
	for _, l := range links {
		if err := checkSceneLink(l.raw); err != nil {
			t.Errorf("%s: %s: %v", l.where, l.raw, err)
		}
		if name, _, err := sceneLink(l.raw); err == nil && name != "" {
			scenes[name] = true
		}
	}
	// Every line that sends students to a scene holds a link to it.
	err := filepath.WalkDir(workshopDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, n := range viz.Names() {
				if sceneMention(line, n) && !regexp.MustCompile(`/scene(\.html)?\?name=`+regexp.QuoteMeta(n)+`\b`).MatchString(line) {
					t.Errorf("%s:%d names the %s scene without a link to the state it means: %s", path, i+1, n, line)
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.NotEmpty(t, scenes)

	// The checker itself finds wrong links.
	base := "http://" + workshopHost + "/scene.html?name="
	for _, bad := range []string{
		base + "nosuch",
		base + "explorer&nosuch=1",
		base + "explorer&format=E9M9",
		base + "explorer&code=0x7E", // kept as 126: the control would not show the link's text
		"http://" + workshopHost + "/scenes?name=explorer",
		"http://localhost:8080/scene.html?name=explorer",
	} {
		assert.Error(t, checkSceneLink(bad), bad)
	}
	assert.NoError(t, checkSceneLink(base+"explorer&format=E5M2&code=124"))
	assert.NoError(t, checkSceneLink("http://"+workshopHost+"/scene?name=explorer&code=124"), "the page without .html, as fp8lab serve finds it")
}

// linkProblems opens a workshop link in the tab, on the test's server, and
// returns what does not hold: a control of each linked parameter that
// shows another value, a parameter the scene does not have, an error
// beside a control or in the status line.
func linkProblems(t *testing.T, tab *tabT, base, raw string) []string {
	t.Helper()
	name, params, err := sceneLink(raw)
	require.NoError(t, err)
	u := strings.Replace(raw, "http://"+workshopHost+"/", base, 1)
	tab.do(t, chromedp.Navigate(u))
	tab.waitReady(t)
	var problems []string
	if got := eval[string](t, tab, liveAPI+`.then(a => a.currentScene().name)`); got != name {
		problems = append(problems, "the page shows scene "+got)
	}
	for _, kv := range params {
		type control struct {
			Kind, Value string
			Checked     bool
		}
		cs := eval[[]control](t, tab, fmt.Sprintf(`Array.from(document.querySelectorAll("#controls [data-param='%s']"), e => ({Kind: e.type || e.tagName, Value: e.value, Checked: !!e.checked}))`, kv[0]))
		if len(cs) == 0 {
			problems = append(problems, fmt.Sprintf("no control for %s", kv[0]))
			continue
		}
		for _, c := range cs {
			shown := c.Value
			if c.Kind == "checkbox" {
				shown = fmt.Sprint(c.Checked)
			}
			if shown != kv[1] {
				problems = append(problems, fmt.Sprintf("the %s control of %s shows %q, the link says %q", c.Kind, kv[0], shown, kv[1]))
			}
		}
		if got := eval[string](t, tab, fmt.Sprintf(`%s.then(a => a.getParam(%q))`, liveAPI, kv[0])); got != kv[1] {
			problems = append(problems, fmt.Sprintf("the scene has %s=%q, the link says %q", kv[0], got, kv[1]))
		}
	}
	if errs := eval[[]string](t, tab, `Array.from(document.querySelectorAll("#controls .error"), e => e.textContent).filter(s => s !== "")`); len(errs) > 0 {
		problems = append(problems, "errors beside the controls: "+strings.Join(errs, "; "))
	}
	if st := eval[string](t, tab, `document.getElementById("status").textContent`); st != "" {
		problems = append(problems, "status: "+st)
	}
	return problems
}

// TestWorkshopLinksInTheBrowser opens every scene link of docs/workshop in
// Chromium and checks that the scene's controls hold the linked values
// (the Done-when of issue 13 item 10). A link with an unknown parameter or
// a refused value fails the same check.
func TestWorkshopLinksInTheBrowser(t *testing.T) {
	base, _ := server(t)
	seen := map[string]bool{}
	tab := newTab(t)
	for _, l := range workshopLinks(t) {
		name, _, err := sceneLink(l.raw)
		if err != nil || name == "" || seen[l.raw] {
			continue
		}
		seen[l.raw] = true
		start := time.Now()
		if p := linkProblems(t, tab, base, l.raw); len(p) > 0 {
			t.Errorf("%s: %s:\n  %s", l.where, l.raw, strings.Join(p, "\n  "))
		}
		t.Logf("%s opened in %s", l.raw, time.Since(start).Round(time.Millisecond))
	}
	require.NotEmpty(t, seen)

	// Wrong links fail the check: a parameter the scene does not have, and
	// a value it refuses (the page reports both on the console).
	bad := newTab(t)
	bad.allow = true
	link := "http://" + workshopHost + "/scene.html?name=explorer&nosuch=1&format=E9M9&code=127"
	p := linkProblems(t, bad, base, link)
	joined := strings.Join(p, "\n")
	assert.Contains(t, joined, "no control for nosuch")
	assert.Contains(t, joined, `shows "E4M3FN", the link says "E9M9"`)
	assert.Contains(t, joined, "nosuch=1", "the status line names the unknown parameter")
	assert.NotContains(t, joined, "control of code", "the valid part of the link is applied")
	assert.NotContains(t, joined, "scene has code=")
	assert.Contains(t, strings.Join(bad.Errors(), "\n"), "fp8lab link: format=E9M9 was not applied")
}
