package records

import (
	"bytes"
	"embed"
	"fmt"
	"path/filepath"
	"sync"
)

// lessonFiles are the lessons' runs (package train/lessons), as
// `go tool task training-lessons` wrote them: lessons/NAME.json.gz, one
// record a lesson, and a README.
//
//go:embed lessons
var lessonFiles embed.FS

// lessonDir is where the lessons' records are, under Dir.
const lessonDir = "lessons"

// LessonPath is the file of one lesson's runs, relative to the repository
// root.
func LessonPath(name string) string {
	return filepath.Join(filepath.FromSlash(Dir), lessonDir, name+".json.gz")
}

var lessons struct {
	mu   sync.Mutex
	recs map[string]*Record
}

// Lesson returns the shipped runs of the lesson of that name, decoded
// once. The record is shared: callers must not change it.
func Lesson(name string) (*Record, error) {
	lessons.mu.Lock()
	defer lessons.mu.Unlock()
	if rec := lessons.recs[name]; rec != nil {
		return rec, nil
	}
	b, err := lessonFiles.ReadFile(lessonDir + "/" + name + ".json.gz")
	if err != nil {
		return nil, fmt.Errorf("records: no shipped runs of the lesson %q", name)
	}
	rec, err := Read(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("records: lesson %s: %w", name, err)
	}
	if lessons.recs == nil {
		lessons.recs = map[string]*Record{}
	}
	lessons.recs[name] = rec
	return rec, nil
}
