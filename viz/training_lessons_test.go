package viz

import (
	"image"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/train/lessons"
	"github.com/fp8lab/fp8lab/train/records"
	"github.com/fp8lab/fp8lab/viz/plot/plottest"
)

// TestTrainingLessons shows every lesson's shipped runs: the facts and the
// explanation carry the talk's words and the lesson's sentence, every
// recipe the lesson ran is drawn, a recipe an Inf or a NaN stopped is said
// to have stopped, and the picture has its four plots.
func TestTrainingLessons(t *testing.T) {
	var axes []*plottest.Axes
	stop := plottest.ObserveAxes(func(a *plottest.Axes) { axes = append(axes, a) })
	defer stop()
	s := newTrainingWith(t, map[string]string{"runs": runsLessons})
	for _, l := range lessons.All() {
		t.Run(l.Name, func(t *testing.T) {
			require.NoError(t, s.Set("lesson", l.Name))
			rec, err := records.Lesson(l.Name)
			require.NoError(t, err)
			want, err := l.Sentence(rec)
			require.NoError(t, err)
			f := facts(s.Facts())
			assert.Equal(t, "shipped", f["status"])
			assert.Equal(t, l.Name, f["lesson"])
			assert.Equal(t, want, f["shows"])
			assert.Equal(t, strconv.Itoa(len(l.Recipes)), f["recipes"])
			for i, name := range l.Recipes {
				k := strconv.Itoa(i + 1)
				assert.Equal(t, name, f["recipe_"+k])
				stopped := 0
				for j := range rec.Seeds {
					if r := rec.Run(i, j); r != nil && r.Diverged != nil {
						stopped++
					}
				}
				if stopped > 0 {
					assert.Contains(t, f["stopped_"+k], "an Inf or a NaN stopped "+strconv.Itoa(stopped)+" of 3 seeds", name)
				} else {
					assert.NotContains(t, f, "stopped_"+k, name)
				}
			}
			text := strings.Join(s.Explain().Paragraphs(), "\n")
			for _, q := range l.Quotes {
				assert.Contains(t, text, "“"+q+"”")
			}
			// The lesson's finding is the takeaway, the first sentence.
			assert.Equal(t, "Lesson "+strconv.Itoa(lessonNumber(l.Name))+", "+lowerFirst(l.Title)+": "+lowerFirst(want)+".", s.Explain().Takeaway())
			assert.Contains(t, text, " by: "+rec.Command+". ")
			axes = axes[:0]
			img := image.NewRGBA(image.Rect(0, 0, 1280, 720))
			require.NoError(t, RenderFor(s, img, Display{PixelRatio: 1}))
			assert.Len(t, axes, 4, "the loss curves, the gaps and two maps")
		})
	}
	assert.Error(t, s.Set("lesson", "nosuch"))
}

// TestTrainingRemoteFeed trains elsewhere as a browser's worker does: a
// runner of the scene's plan, its updates fed back, gives the curves the
// scene trains itself, bit for bit; an update of an older plan is refused,
// and so is one that does not continue the curves.
func TestTrainingRemoteFeed(t *testing.T) {
	params := map[string]string{"recipe1": "bf16", "recipe2": "tensorwise", "recipe3": "none", "steps": "25", "seed": "4"}
	local := newTrainingWith(t, params)
	require.NoError(t, local.advanceSteps(25))
	want, _ := local.run.snapshot()

	s := newTrainingWith(t, params)
	s.TrainElsewhere()
	plan := s.TrainingPlan()
	assert.False(t, plan.Train)
	assert.Equal(t, []string{"bf16", "tensorwise"}, plan.Recipes)
	require.NoError(t, s.Set("train", "true"))
	assert.False(t, s.Animate(), "a scene that trains elsewhere trains nothing in its frames")
	plan = s.TrainingPlan()
	require.True(t, plan.Train)
	r, err := NewTrainingRunner(plan)
	require.NoError(t, err)
	var first TrainingUpdate
	for n := 0; ; n++ {
		require.Less(t, n, 100)
		u := r.Advance(time.Millisecond)
		if n == 0 {
			first = u
		}
		require.NoError(t, s.FeedTraining(u))
		if u.Done {
			break
		}
	}
	assert.True(t, s.Animate(), "fed steps are new to the frame loop")
	got, _ := s.run.snapshot()
	for i := range want {
		assert.Equal(t, want[i].loss, got[i].loss, want[i].recipe)
		assert.Equal(t, want[i].val, got[i].val, want[i].recipe)
		assert.Equal(t, want[i].stats, got[i].stats, want[i].recipe)
	}
	assert.Equal(t, "done", facts(s.Facts())["status"])
	assert.Error(t, s.FeedTraining(first), "an update that does not continue the curves")

	// A new run (another seed) makes a new plan; the old plan's updates
	// are refused.
	require.NoError(t, s.Set("seed", "5"))
	assert.NotEqual(t, plan.Key, s.TrainingPlan().Key)
	assert.ErrorIs(t, s.FeedTraining(first), errStalePlan)
	// A host that becomes ready after the scene trained steps itself
	// leaves that run to the scene, and trains the next one.
	late := newTrainingWith(t, map[string]string{"recipe2": "none", "recipe3": "none", "steps": "25", "train": "true"})
	require.True(t, late.Animate())
	late.TrainElsewhere()
	assert.Empty(t, late.TrainingPlan().Key, "the run under way is not the host's")
	before := late.Version()
	require.True(t, late.Animate(), "the scene goes on training the run it started")
	assert.Greater(t, late.Version(), before)
	require.NoError(t, late.Set("seed", "9"))
	assert.NotEmpty(t, late.TrainingPlan().Key, "the next run is the host's")
	assert.False(t, late.Animate())

	_, err = NewTrainingRunner(TrainingPlan{Recipes: []string{"bf16"}, Steps: 0})
	assert.Error(t, err)
	_, err = NewTrainingRunner(TrainingPlan{Recipes: nil, Steps: 10})
	assert.Error(t, err)
	_, err = NewTrainingRunner(TrainingPlan{Recipes: []string{"nosuch"}, Steps: 10})
	assert.Error(t, err)
}

// Choosing a lesson shows its runs (the Lesson control did nothing while
// Runs was live, TestEachControlChangesTheCanvas); a Runs set after it, as
// a link or Reset sets it, still decides.
func TestChoosingALessonShowsIt(t *testing.T) {
	s, err := New("training")
	require.NoError(t, err)
	require.Equal(t, "lesson", s.Params()[0].Name, "Lesson comes before Runs")
	require.NoError(t, s.Set("lesson", "underflow"))
	runs, _ := s.Get("runs")
	assert.Equal(t, runsLessons, runs)
	assert.Equal(t, "underflow", s.Facts()["lesson"])
	require.NoError(t, s.Set("runs", runsLive))
	require.NoError(t, s.Set("lesson", "underflow"))
	runs, _ = s.Get("runs")
	assert.Equal(t, runsLive, runs, "the same lesson again changes nothing")
	require.NoError(t, s.Set("lesson", lessons.Names()[0]))
	require.NoError(t, s.Set("runs", runsLive))
	runs, _ = s.Get("runs")
	assert.Equal(t, runsLive, runs, "Reset's order ends on its Runs")
}
