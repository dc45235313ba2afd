package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"os"
)

// Chart geometry, in pixels.
const (
	svgWidth  = 820
	svgLeft   = 190 // room for the measurement labels
	svgRight  = 70  // room for a bar's label past the last tick
	svgTop    = 84
	svgBottom = 76
	svgBar    = 30
	svgGap    = 16
)

// writeBenchSVG writes a horizontal bar chart of the rows' speedups, on a
// log scale around a 1x reference line, to f and closes it.
func writeBenchSVG(f *os.File, subtitle string, rows []benchRow) error {
	var b bytes.Buffer
	writeSVG(&b, subtitle, rows)
	if _, err := f.Write(b.Bytes()); err != nil {
		return err
	}
	return f.Close()
}

func writeSVG(b *bytes.Buffer, subtitle string, rows []benchRow) {
	plotW := float64(svgWidth - svgLeft - svgRight)
	plotH := len(rows)*(svgBar+svgGap) + svgGap
	height := svgTop + plotH + svgBottom

	// The x axis spans whole powers of two, at least 0.5x to 2x, with room
	// for the label at the end of each bar.
	lo, hi := -1.0, 1.0
	for _, r := range rows {
		l := math.Log2(r.speedup())
		lo, hi = min(lo, math.Floor(l-0.35)), max(hi, math.Ceil(l+0.35))
	}
	x := func(ratio float64) float64 {
		return svgLeft + (math.Log2(ratio)-lo)/(hi-lo)*plotW
	}
	step := math.Ceil((hi - lo) / 8) // at most 9 ticks

	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Arial, sans-serif">`+"\n",
		svgWidth, height, svgWidth, height)
	fmt.Fprintf(b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	text(b, svgWidth/2, 30, 20, "middle", "bold", "#222", "metapack speedup over its peer")
	text(b, svgWidth/2, 54, 12, "middle", "normal", "#555", subtitle)

	// Grid lines and tick labels.
	bottom := float64(svgTop + plotH)
	for e := lo; e <= hi; e += step {
		tx := x(math.Exp2(e))
		fmt.Fprintf(b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%.1f" stroke="#ddd" stroke-width="1"/>`+"\n", tx, svgTop, tx, bottom)
		text(b, tx, bottom+20, 13, "middle", "normal", "#333", ratioLabel(math.Exp2(e)))
	}
	// Axes and their titles.
	fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#333" stroke-width="1"/>`+"\n", svgLeft, bottom, svgWidth-svgRight, bottom)
	fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%.1f" stroke="#333" stroke-width="1"/>`+"\n", svgLeft, svgTop, svgLeft, bottom)
	text(b, svgLeft+plotW/2, bottom+46, 13, "middle", "normal", "#222",
		"speedup = peer ns/op ÷ metapack ns/op (log scale; right of 1x, metapack is faster)")
	fmt.Fprintf(b, `<text x="22" y="%.1f" font-size="13" text-anchor="middle" fill="#222" transform="rotate(-90 22 %.1f)">measurement (vs peer)</text>`+"\n",
		float64(svgTop)+float64(plotH)/2, float64(svgTop)+float64(plotH)/2)

	// Bars from 1x to each speedup.
	one := x(1)
	for i, r := range rows {
		top := float64(svgTop + svgGap + i*(svgBar+svgGap))
		mid := top + svgBar/2
		s := r.speedup()
		end := x(s)
		color, anchor, lx := "#2e7d32", "start", end+6
		if s < 1 {
			color, anchor, lx = "#c62828", "end", end-6
		}
		fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%d" fill="%s"/>`+"\n", min(one, end), top, max(math.Abs(end-one), 1), svgBar, color)
		text(b, lx, mid+5, 14, anchor, "bold", "#222", fmt.Sprintf("%.2fx", s))
		text(b, svgLeft-10, mid-1, 14, "end", "bold", "#222", r.m.name)
		text(b, svgLeft-10, mid+14, 11, "end", "normal", "#555", "vs "+r.results[1].Impl)
	}

	// The 1x reference line, over the bars.
	fmt.Fprintf(b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%.1f" stroke="#000" stroke-width="2" stroke-dasharray="6 3"/>`+"\n", one, svgTop-6, one, bottom)
	text(b, one, svgTop-10, 12, "middle", "normal", "#000", "1x: same speed")
	b.WriteString("</svg>\n")
}

// text writes one <text> element, escaping s.
func text(b *bytes.Buffer, x, y float64, size int, anchor, weight, fill, s string) {
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="%d" text-anchor="%s" font-weight="%s" fill="%s">`, x, y, size, anchor, weight, fill)
	xml.EscapeText(b, []byte(s))
	b.WriteString("</text>\n")
}

// ratioLabel formats a power of two as a tick label: 0.25x, 0.5x, 1x, 2x.
func ratioLabel(r float64) string {
	return fmt.Sprintf("%gx", r)
}
