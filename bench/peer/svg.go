package main

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// figureColors are the bar colours, by figure.
var figureColors = [numFigures]string{"#9ecae1", "#3182bd", "#31a354", "#e6550d", "#756bb1", "#9e9ac8", "#cbc9e2", "#fd8d3c", "#fdae6b", "#636363", "#bdbdbd"}

// Chart geometry, in SVG user units.
const (
	minChartW, minChartH = 960, 440 // the plot's height; wider for more bars, higher for more legend rows
	plotL, plotR         = 70, 20
	plotT, plotB         = 50, 90
	barW, barGap, grpGap = 18, 4, 36
)

// svg draws the ratios dbg/peer as grouped bars on a log scale: one group
// per language (and one for start-up), one bar per figure, rising above
// the line at 1 where dbg is slower and falling below it where dbg is
// faster. A figure one server failed is marked "failed" in place of its
// bar.
func (r *report) svg() string {
	rows := r.rows()
	lo, hi := ratioRange(rows)
	plotH := float64(minChartH - plotT - plotB)
	y := func(v float64) float64 {
		return plotT + plotH*(math.Log10(hi)-math.Log10(v))/(math.Log10(hi)-math.Log10(lo))
	}
	// As wide as the bars need, and as high as the legend's rows.
	groups := 0
	for i, rw := range rows {
		if i == 0 || rw.lang != rows[i-1].lang {
			groups++
		}
	}
	chartW := max(minChartW, plotL+12+groups*grpGap+len(rows)*(barW+barGap)+plotR)
	type item struct{ x, y float64 }
	legend := make([]item, numFigures)
	lx, ly := float64(plotL), float64(minChartH-40)
	for f := figure(0); f < numFigures; f++ {
		w := 26 + 7*float64(len(f.label()))
		if lx+w > float64(chartW-plotR) && lx > plotL {
			lx, ly = plotL, ly+20
		}
		legend[f] = item{lx, ly}
		lx += w
	}
	chartH := int(ly) + 40
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", chartW, chartH, chartW, chartH)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", chartW, chartH)
	fmt.Fprintf(&b, `<text x="%d" y="22" font-size="15" font-weight="bold">dbg / mcp-debugger 0.24.2 (median ratio, log scale; below 1: dbg faster or smaller)</text>`+"\n", plotL)
	for d := lo; d <= hi*1.0001; d *= 10 {
		yy := y(d)
		stroke := "#dddddd"
		if math.Abs(d-1) < 1e-9 {
			stroke = "#000000"
		}
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s"/>`+"\n", plotL, yy, chartW-plotR, yy, stroke)
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", plotL-6, yy+4, tick(d))
	}
	x := float64(plotL + 12)
	group := ""
	groupStart := x
	closeGroup := func() {
		if group != "" {
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" font-weight="bold">%s</text>`+"\n", (groupStart+x-barGap)/2, minChartH-plotB+18, html.EscapeString(group))
			x += grpGap
		}
	}
	for _, rw := range rows {
		if rw.lang != group {
			closeGroup()
			group, groupStart = rw.lang, x
		}
		v := rw.ratio()
		if v <= 0 {
			v = lo
		}
		color := figureColors[rw.fig]
		if math.IsNaN(v) {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" transform="rotate(-90 %.1f %.1f)" fill="#b00000" font-size="11">failed</text>`+"\n",
				x+barW/2+4, y(1)-4, x+barW/2+4, y(1)-4)
		} else {
			top, bottom := y(math.Max(v, 1)), y(math.Min(v, 1))
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%d" height="%.1f" fill="%s"><title>%s %s: %s</title></rect>`+"\n",
				x, top, barW, math.Max(bottom-top, 1), color, html.EscapeString(rw.lang), html.EscapeString(rw.fig.label()), formatRatio(v))
			// The value, written along the bar's far end.
			lx, ly, anchor := x+barW/2+4, top-3, "start"
			if v < 1 {
				ly, anchor = bottom+3, "end"
			}
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" transform="rotate(-90 %.1f %.1f)" text-anchor="%s" font-size="10">%s</text>`+"\n",
				lx, ly, lx, ly, anchor, formatRatio(v))
		}
		x += barW + barGap
	}
	closeGroup()
	for f := figure(0); f < numFigures; f++ {
		it := legend[f]
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.0f" width="12" height="12" fill="%s"/><text x="%.1f" y="%.0f">%s</text>`+"\n",
			it.x, it.y, figureColors[f], it.x+16, it.y+10, html.EscapeString(f.label()))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// labelRoom is the room, in decades, a bar's label needs past its end.
const labelRoom = 0.3

// ratioRange is the decades the chart's axis spans: every ratio with room
// for its label, and 1.
func ratioRange(rows []row) (lo, hi float64) {
	lo, hi = 0.1, 10
	for _, rw := range rows {
		if v := rw.ratio(); !math.IsNaN(v) && v > 0 {
			// A third of a decade beyond the bar, for its label.
			lo = math.Min(lo, math.Pow(10, math.Floor(math.Log10(v)-labelRoom)))
			hi = math.Max(hi, math.Pow(10, math.Ceil(math.Log10(v)+labelRoom)))
		}
	}
	return lo, hi
}

// tick writes a power of ten as an axis label.
func tick(d float64) string {
	if d >= 1 {
		return fmt.Sprintf("%.0f×", d)
	}
	return strings.TrimRight(fmt.Sprintf("%.6f", d), "0") + "×"
}
