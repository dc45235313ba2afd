package workload

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/metapack/metapack/internal/story"
)

type resKind int

const (
	kDoc resKind = iota
	kCSS
	kJS
	kFont
	kImg
	kAPI
)

type bhost struct {
	authority string
	cookies   bool // first-party: the site's cookies are sent to it
	cdn       bool // a CDN: adds age and x-cache
	server    string
}

type asset struct {
	host    int
	path    string
	kind    resKind
	etag    string
	lastMod time.Time
	size    int
	gen     func() string // makes a path for a new version of the asset
}

type cookieSpec struct {
	name   string
	gen    func(r rng, now time.Time, visits int) string
	server bool    // set by the server with set-cookie (else by script)
	rotate float64 // chance per document response that the server resets it
	attrs  string
}

type site struct {
	hosts   []bhost // hosts[0] serves documents, the last one the API
	pages   []string
	assets  []asset
	apis    []string
	cookies []cookieSpec
	weight  float64
}

type uaProfile struct {
	ua, family, chUA, platform, mobile string
}

var uaProfiles = []uaProfile{
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36", "chrome",
		`"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"`, `"Windows"`, "?0"},
	{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:125.0) Gecko/20100101 Firefox/125.0", "firefox", "", "", ""},
	{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1", "safari", "", "", ""},
	{"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36", "chrome",
		`"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"`, `"Android"`, "?1"},
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.80", "chrome",
		`"Chromium";v="124", "Microsoft Edge";v="124", "Not-A.Brand";v="99"`, `"Windows"`, "?0"},
}

var languages = []string{"en-US,en;q=0.9", "en-GB,en-US;q=0.9,en;q=0.8", "de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7", "fr-FR,fr;q=0.9,en;q=0.5", "ja,en-US;q=0.9,en;q=0.8"}

var words = []string{"market", "rally", "storm", "election", "climate", "summit", "budget", "league", "final", "energy", "prices",
	"science", "space", "launch", "review", "guide", "best", "cheap", "flights", "recipe", "coffee", "running", "shoes", "laptop",
	"phone", "battery", "camera", "garden", "city", "council", "river", "festival", "report", "health", "study", "ocean"}

type user struct {
	ua     uaProfile
	lang   string
	jars   [][]string // per site, the cookie values by cookieSpec index ("" when unset)
	visits []int      // per site
	seen   [][]bool   // per site, per asset
	last   []string   // per site, the last page's URL
}

type browserGen struct {
	r     rng
	sites []site
	sw    weighted
	users []user
	uw    weighted
	now   time.Time
}

func (r rng) slug(n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = r.pick(words)
	}
	return strings.Join(ws, "-")
}

func (r rng) terms() string {
	ws := make([]string, 1+r.IntN(3))
	for i := range ws {
		ws[i] = r.pick(words)
	}
	return strings.Join(ws, " ")
}

func (r rng) digits(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + r.IntN(10))
	}
	if b[0] == '0' {
		b[0] = '1'
	}
	return string(b)
}

func (g *browserGen) addAssets(s *site, host int, kind resKind, count int, path func() string) {
	r := g.r
	for range count {
		a := asset{host: host, kind: kind, gen: path}
		g.renew(&a, g.now.Add(-time.Duration(3600+r.IntN(200*24*3600))*time.Second))
		s.assets = append(s.assets, a)
	}
}

// renew gives a a new path, version and size, last modified at t.
func (g *browserGen) renew(a *asset, t time.Time) {
	r := g.r
	a.path = a.gen()
	a.lastMod = t.Truncate(time.Second)
	switch r.IntN(3) {
	case 0:
		a.etag = `"` + r.hex(16) + `"`
	case 1:
		a.etag = fmt.Sprintf(`"%x-%x"`, a.lastMod.Unix(), 1000+r.IntN(500000))
	default:
		a.etag = `W/"` + r.hex(4) + "-" + r.alnum(27) + `"`
	}
	switch a.kind {
	case kCSS:
		a.size = r.between(4_000, 180_000)
	case kJS:
		a.size = r.between(2_000, 900_000)
	case kFont:
		a.size = r.between(20_000, 120_000)
	case kImg:
		a.size = r.between(300, 400_000)
	}
}

func (g *browserGen) addStatic(s *site, host int) {
	r := g.r
	g.addAssets(s, host, kCSS, 2, func() string {
		return "/static/css/" + r.pick([]string{"main", "vendor", "print", "theme"}) + "." + r.hex(4) + ".css"
	})
	g.addAssets(s, host, kJS, 4, func() string {
		return "/static/js/" + r.pick([]string{"runtime", "vendor", "main", "analytics", "ads", "chunk-" + r.hex(3)}) + "." + r.hex(4) + ".js"
	})
	g.addAssets(s, host, kFont, 1, func() string {
		return "/static/fonts/" + r.pick([]string{"inter-var", "roboto-400", "merriweather-700"}) + "." + r.hex(3) + ".woff2"
	})
}

func (g *browserGen) addImages(s *site, host int, count int, path func() string) {
	g.addAssets(s, host, kImg, count, path)
}

func newBrowserGen(seed uint64) *browserGen {
	g := &browserGen{r: newRNG(seed, 2)}
	r := g.r
	g.now = time.Date(2024, 5, 14, 8, 0, 0, 0, time.UTC).Add(time.Duration(r.IntN(30*24*3600)) * time.Second)
	day := func(now time.Time) string { return now.Format("2006-01-02-15") }

	// A news site on nginx with a CDN for static files and images.
	news := site{weight: 4, hosts: []bhost{
		{"www.example-news.com", true, false, "nginx"},
		{"static.example-news.com", false, true, "cloudflare"},
		{"img.example-news.com", false, true, "cloudflare"},
		{"api.example-news.com", true, false, "nginx"},
	}}
	sections := []string{"world", "business", "politics", "science", "sport", "tech", "opinion"}
	news.pages = append(news.pages, "/", "/live", "/search?q="+url.QueryEscape(r.terms())+"&sort=recent")
	for range 18 {
		news.pages = append(news.pages, fmt.Sprintf("/%s/2024/05/%02d/%s", r.pick(sections), 1+r.IntN(28), r.slug(3+r.IntN(5))))
	}
	for _, sec := range sections {
		news.pages = append(news.pages, "/"+sec+"?page="+strconv.Itoa(1+r.IntN(3)))
	}
	g.addStatic(&news, 1)
	g.addImages(&news, 2, 30, func() string {
		w := []int{320, 640, 960, 1280}[r.IntN(4)]
		return fmt.Sprintf("/images/2024/05/%s-%dx%d.jpg?w=%d&q=75&fm=webp", r.slug(3), w, w*9/16, w)
	})
	news.apis = []string{"/v2/comments?article=%d&limit=20&sort=top", "/v2/recommendations?section=world&exclude=%d", "/v2/live/updates?since=%d"}
	gaID := "G-" + strings.ToUpper(r.alnum(10))
	news.cookies = []cookieSpec{
		{"_ga", func(r rng, now time.Time, _ int) string { return fmt.Sprintf("GA1.2.%s.%d", r.digits(10), now.Unix()) }, false, 0, ""},
		{"_ga_" + gaID[2:], func(r rng, now time.Time, v int) string {
			return fmt.Sprintf("GS1.1.%d.%d.1.%d.0.0.0", now.Unix(), v, now.Unix()+int64(r.IntN(600)))
		}, false, 1, ""},
		{"session", func(r rng, _ time.Time, _ int) string { return r.hex(16) }, true, 0.03, "; Path=/; HttpOnly; Secure; SameSite=Lax"},
		{"consent", func(r rng, _ time.Time, _ int) string { return b64url(r.bytes(45)) }, true, 0, "; Path=/; Max-Age=31536000; Secure"},
		{"edition", func(r rng, _ time.Time, _ int) string { return r.pick([]string{"us", "uk", "intl"}) }, true, 0.005, "; Path=/; Max-Age=2592000"},
	}

	// A shop behind a CDN.
	shop := site{weight: 3, hosts: []bhost{
		{"shop.example.com", true, false, "Server"},
		{"m.media-shopassets.net", false, true, "AmazonS3"},
		{"shop.example.com", true, false, "Server"},
	}}
	shop.pages = append(shop.pages, "/", "/cart", "/gp/your-orders?ref_=nav_orders_first")
	for range 12 {
		shop.pages = append(shop.pages, fmt.Sprintf("/dp/B0%s?ref=sr_1_%d&th=1&psc=1", strings.ToUpper(r.alnum(8)), 1+r.IntN(20)))
	}
	for range 6 {
		t := r.terms()
		shop.pages = append(shop.pages, fmt.Sprintf("/s?k=%s&crid=%s&sprefix=%s%%2Caps%%2C%d&ref=nb_sb_noss_%d",
			url.QueryEscape(t), strings.ToUpper(r.alnum(13)), url.QueryEscape(t[:min(4, len(t))]), 100+r.IntN(200), 1+r.IntN(2)))
	}
	g.addStatic(&shop, 1)
	g.addImages(&shop, 1, 40, func() string {
		return fmt.Sprintf("/images/I/%s%s._AC_SX%d_.jpg", r.digits(2), r.alnum(9), []int{300, 425, 679}[r.IntN(3)])
	})
	shop.apis = []string{"/api/cart/count?ts=%d", "/api/recs?widget=sims&asin=B0%d", "/api/price?asin=B0%d&qty=1"}
	shop.cookies = []cookieSpec{
		{"session-id", func(r rng, _ time.Time, _ int) string { return r.digits(3) + "-" + r.digits(7) + "-" + r.digits(7) }, true, 0.002, "; Domain=.example.com; Path=/; Secure"},
		{"i18n-prefs", func(r rng, _ time.Time, _ int) string { return r.pick([]string{"USD", "EUR", "GBP"}) }, true, 0, "; Domain=.example.com; Path=/"},
		{"ubid-main", func(r rng, _ time.Time, _ int) string { return r.digits(3) + "-" + r.digits(7) + "-" + r.digits(7) }, true, 0, "; Domain=.example.com; Path=/; Secure"},
		{"session-token", func(r rng, _ time.Time, _ int) string { return b64(r.bytes(140)) }, true, 0.05, "; Domain=.example.com; Path=/; Secure; HttpOnly"},
		{"csm-hit", func(r rng, now time.Time, _ int) string {
			return fmt.Sprintf("tb:%s+s-%s|%d&t:%d&adb:adblk_no", strings.ToUpper(r.alnum(20)), strings.ToUpper(r.alnum(20)), now.UnixMilli(), now.UnixMilli())
		}, false, 1, ""},
	}

	// A social site with a JSON API.
	social := site{weight: 3, hosts: []bhost{
		{"social.example.org", true, false, "envoy"},
		{"abs.socialimg.example", false, true, "ECS (sjc/4E8D)"},
		{"api.social.example.org", true, false, "envoy"},
	}}
	social.pages = append(social.pages, "/home", "/explore?tab=trending", "/notifications", "/messages")
	for range 10 {
		u := r.pick(words) + r.digits(3)
		social.pages = append(social.pages, "/"+u, fmt.Sprintf("/%s/status/%s", u, r.digits(19)))
	}
	g.addStatic(&social, 1)
	g.addImages(&social, 1, 30, func() string {
		return fmt.Sprintf("/media/%s?format=jpg&name=%s", r.alnum(15), r.pick([]string{"small", "medium", "large", "360x360"}))
	})
	qid := r.alnum(22)
	social.apis = []string{"/graphql/" + qid + "/HomeTimeline?variables=%%7B%%22count%%22%%3A20%%2C%%22cursor%%22%%3A%%22%d%%22%%7D", "/1.1/badge_count/badge_count.json?supports_ntab_urt=%d", "/graphql/" + r.alnum(22) + "/UserByScreenName?variables=%%7B%%22id%%22%%3A%%22%d%%22%%7D"}
	social.cookies = []cookieSpec{
		{"guest_id", func(r rng, _ time.Time, _ int) string { return "v1%3A" + r.digits(19) }, true, 0, "; Max-Age=34164000; Domain=.social.example.org; Path=/; Secure; SameSite=None"},
		{"auth_token", func(r rng, _ time.Time, _ int) string { return r.hex(20) }, true, 0, "; Max-Age=157680000; Domain=.social.example.org; Path=/; Secure; HttpOnly; SameSite=None"},
		{"ct0", func(r rng, _ time.Time, _ int) string { return r.hex(80) }, true, 0.02, "; Max-Age=157680000; Domain=.social.example.org; Path=/; Secure; SameSite=Lax"},
		{"lang", func(r rng, _ time.Time, _ int) string { return r.pick([]string{"en", "de", "fr", "ja"}) }, true, 0, "; Path=/"},
		{"dnt", func(r rng, _ time.Time, _ int) string { return "1" }, false, 0, ""},
	}

	// A search engine.
	search := site{weight: 2, hosts: []bhost{
		{"www.example-search.com", true, false, "gws"},
		{"www.example-search.com", true, false, "gws"},
		{"www.example-search.com", true, false, "gws"},
	}}
	search.pages = append(search.pages, "/", "/imghp?hl=en&ogbl")
	for range 10 {
		t := url.QueryEscape(r.terms())
		search.pages = append(search.pages, fmt.Sprintf("/search?q=%s&oq=%s&gs_lcrp=%s&sourceid=chrome&ie=UTF-8", t, t, b64url(r.bytes(36))))
	}
	g.addAssets(&search, 1, kJS, 3, func() string {
		return "/xjs/_/js/k=xjs.s.en_US." + r.alnum(11) + ".O/am=" + r.alnum(20) + "/d=1/ed=1/rs=" + r.alnum(34) + "/m=cdos,hsm,jsa"
	})
	g.addImages(&search, 1, 10, func() string {
		return "/images/branding/logo/" + r.pick([]string{"1x", "2x"}) + "/logo_" + r.hex(3) + ".png"
	})
	search.apis = []string{"/complete/search?q=%d&cp=2&client=gws-wiz&xssi=t&hl=en", "/gen_204?atyp=i&ei=" + r.alnum(22) + "&ct=%d"}
	search.cookies = []cookieSpec{
		{"NID", func(r rng, _ time.Time, _ int) string { return r.digits(3) + "=" + b64url(r.bytes(140)) }, true, 0.02, "; expires=Thu, 14-Nov-2024 08:00:00 GMT; path=/; domain=.example-search.com; HttpOnly"},
		{"AEC", func(r rng, _ time.Time, _ int) string { return b64url(r.bytes(48)) }, true, 0.01, "; expires=Sun, 10-Nov-2024 08:00:00 GMT; path=/; domain=.example-search.com; Secure; HttpOnly; SameSite=lax"},
		{"1P_JAR", func(_ rng, now time.Time, _ int) string { return day(now) }, true, 0.3, "; expires=Thu, 13-Jun-2024 08:00:00 GMT; path=/; domain=.example-search.com; Secure; SameSite=none"},
		{"SOCS", func(r rng, _ time.Time, _ int) string { return "CAI" + b64url(r.bytes(12)) }, true, 0, "; expires=Sat, 14-Jun-2025 08:00:00 GMT; path=/; domain=.example-search.com; Secure; SameSite=lax"},
	}

	g.sites = []site{news, shop, social, search}
	sw := make([]float64, len(g.sites))
	for i, s := range g.sites {
		sw[i] = s.weight
	}
	g.sw = newWeighted(sw...)

	nusers := 4
	uw := make([]float64, nusers)
	uas := r.Perm(len(uaProfiles))
	for i := range nusers {
		u := user{ua: uaProfiles[uas[i]], lang: r.pick(languages)}
		for _, s := range g.sites {
			u.jars = append(u.jars, make([]string, len(s.cookies)))
			u.seen = append(u.seen, make([]bool, len(s.assets)))
			u.visits = append(u.visits, 0)
			u.last = append(u.last, "")
		}
		g.users = append(g.users, u)
		uw[i] = 1 / float64(i+1)
	}
	g.uw = newWeighted(uw...)
	return g
}

// Browser returns n header lists of browser-like HTTP/2 traffic: a few users
// (each with a user agent, language and cookie jars) visiting a few sites,
// each visit a document and then its scripts, styles, fonts, images and API
// calls, every request followed by its response. Cookies change slowly:
// servers set them with set-cookie on first visits and rotate some now and
// then, and analytics cookies change per visit. Revisited assets come from
// the cache, or are revalidated (304), or fetched again. The date advances.
func Browser(n int, seed uint64) [][]story.Header {
	out := make([][]story.Header, 0, max(n, 0))
	if n <= 0 {
		return out
	}
	g := newBrowserGen(seed)
	for len(out) < n {
		out = g.visit(out, n)
	}
	return out
}

// BrowserStory wraps Browser as a story.
func BrowserStory(n int, seed uint64) *story.Story {
	return toStory(fmt.Sprintf("metapack synthetic browser workload: %d header lists, seed %d", n, seed), Browser(n, seed))
}

type fetch struct {
	si, ui   int
	host     int
	path     string
	kind     resKind
	asset    int // index into the site's assets, -1 for documents and APIs
	referer  string
	post     bool
	reload   bool
	revalid  bool
	sameSite bool
}

// visit appends the exchanges of one page visit to out, up to n lists.
func (g *browserGen) visit(out [][]story.Header, n int) [][]story.Header {
	r := g.r
	g.now = g.now.Add(time.Duration(1+r.IntN(90_000)) * time.Millisecond)
	si, ui := g.sw.pick(r), g.uw.pick(r)
	s, u := &g.sites[si], &g.users[ui]
	u.visits[si]++
	// Sites change: new images often, a deployment of new styles or
	// scripts now and then.
	if r.chance(0.5) {
		g.replaceAsset(si, kImg)
	}
	if r.chance(0.05) {
		g.replaceAsset(si, kJS)
	}
	// Script-set cookies are refreshed on each visit.
	for ci, c := range s.cookies {
		if !c.server && (u.jars[si][ci] == "" || r.chance(c.rotate)) {
			u.jars[si][ci] = c.gen(r, g.now, u.visits[si])
		}
	}

	page := s.pages[r.IntN(len(s.pages))]
	pageURL := "https://" + s.hosts[0].authority + page
	doc := fetch{si: si, ui: ui, host: 0, path: page, kind: kDoc, asset: -1, reload: r.chance(0.04)}
	switch {
	case u.last[si] != "" && r.chance(0.7):
		doc.referer, doc.sameSite = u.last[si], true
	case r.chance(0.5):
		doc.referer = r.pick([]string{"https://www.example-search.com/", "https://social.example.org/", "https://news.example-aggregator.net/"})
	}
	u.last[si] = pageURL
	if out = g.exchange(out, n, doc); len(out) >= n {
		return out
	}

	// Subresources: the styles, scripts and font always, then some images.
	var subs []int
	for ai, a := range s.assets {
		if a.kind != kImg {
			subs = append(subs, ai)
		}
	}
	nimg := 0
	for _, a := range s.assets {
		if a.kind == kImg {
			nimg++
		}
	}
	first := len(s.assets) - nimg
	for range r.between(3, 14) {
		subs = append(subs, first+r.IntN(nimg))
	}
	for _, ai := range subs {
		a := &s.assets[ai]
		f := fetch{si: si, ui: ui, host: a.host, path: a.path, kind: a.kind, asset: ai, referer: pageURL, sameSite: s.hosts[a.host].cookies}
		if u.seen[si][ai] {
			x := r.Float64()
			if x < 0.85 && !doc.reload {
				continue // served from the browser cache
			}
			f.revalid = x < 0.93 || doc.reload
		}
		u.seen[si][ai] = true
		g.now = g.now.Add(time.Duration(1+r.IntN(60)) * time.Millisecond)
		if out = g.exchange(out, n, f); len(out) >= n {
			return out
		}
	}

	// API calls from the page's scripts.
	for range r.IntN(4) {
		api := fmt.Sprintf(s.apis[r.IntN(len(s.apis))], r.IntN(1_000_000_000))
		f := fetch{si: si, ui: ui, host: len(s.hosts) - 1, path: api, kind: kAPI, asset: -1, referer: pageURL, post: r.chance(0.15), sameSite: true}
		g.now = g.now.Add(time.Duration(1+r.IntN(400)) * time.Millisecond)
		if out = g.exchange(out, n, f); len(out) >= n {
			return out
		}
	}
	return out
}

var accepts = map[resKind]string{
	kCSS:  "text/css,*/*;q=0.1",
	kJS:   "*/*",
	kFont: "*/*",
	kImg:  "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8",
	kAPI:  "application/json, text/plain, */*",
}

var destinations = map[resKind][2]string{ // sec-fetch-mode, sec-fetch-dest
	kDoc:  {"navigate", "document"},
	kCSS:  {"no-cors", "style"},
	kJS:   {"no-cors", "script"},
	kFont: {"cors", "font"},
	kImg:  {"no-cors", "image"},
	kAPI:  {"cors", "empty"},
}

// exchange appends a request and its response.
func (g *browserGen) exchange(out [][]story.Header, n int, f fetch) [][]story.Header {
	r := g.r
	s, u := &g.sites[f.si], &g.users[f.ui]
	h := &s.hosts[f.host]
	chrome := u.ua.family == "chrome"

	var req list
	method := "GET"
	if f.post {
		method = "POST"
	}
	if u.ua.family == "firefox" {
		req.add(":method", method)
		req.add(":path", f.path)
		req.add(":authority", h.authority)
		req.add(":scheme", "https")
	} else {
		req.add(":method", method)
		req.add(":authority", h.authority)
		req.add(":scheme", "https")
		req.add(":path", f.path)
	}
	var body int
	if f.post {
		body = r.between(20, 600)
		req.add("content-length", strconv.Itoa(body))
	}
	if f.reload {
		req.add("cache-control", "max-age=0")
	} else if f.kind == kDoc && r.chance(0.03) {
		req.add("cache-control", "no-cache")
		req.add("pragma", "no-cache")
	}
	if chrome {
		req.add("sec-ch-ua", u.ua.chUA)
		req.add("sec-ch-ua-mobile", u.ua.mobile)
		req.add("sec-ch-ua-platform", u.ua.platform)
	}
	if f.kind == kDoc {
		req.add("upgrade-insecure-requests", "1")
	}
	if f.post {
		req.add("content-type", "application/json")
	}
	req.add("user-agent", u.ua.ua)
	if f.kind == kDoc {
		switch u.ua.family {
		case "firefox":
			req.add("accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8")
		case "safari":
			req.add("accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
		default:
			req.add("accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7")
		}
	} else {
		req.add("accept", accepts[f.kind])
	}
	if f.kind == kAPI || f.kind == kFont {
		req.add("origin", "https://"+s.hosts[0].authority)
	}
	if u.ua.family != "safari" {
		site := "same-site"
		switch {
		case f.kind == kDoc && f.referer == "":
			site = "none"
		case f.kind == kDoc && !f.sameSite:
			site = "cross-site"
		case h.authority == s.hosts[0].authority:
			site = "same-origin"
		case !h.cookies:
			site = "cross-site"
		}
		d := destinations[f.kind]
		req.add("sec-fetch-site", site)
		req.add("sec-fetch-mode", d[0])
		if f.kind == kDoc {
			req.add("sec-fetch-user", "?1")
		}
		req.add("sec-fetch-dest", d[1])
	}
	if f.referer != "" {
		req.add("referer", f.referer)
	}
	req.add("accept-encoding", "gzip, deflate, br")
	req.add("accept-language", u.lang)
	if h.cookies {
		var crumbs []string
		for ci, c := range s.cookies {
			if v := u.jars[f.si][ci]; v != "" {
				crumbs = append(crumbs, c.name+"="+v)
			}
		}
		if len(crumbs) > 0 {
			req.add("cookie", strings.Join(crumbs, "; "))
		}
	}
	if f.kind == kAPI && h.cookies && chrome && r.chance(0.5) {
		req.add("x-csrf-token", r.hex(16))
	}
	var a *asset
	if f.asset >= 0 {
		a = &s.assets[f.asset]
		if f.revalid {
			req.add("if-none-match", a.etag)
			if r.chance(0.5) {
				req.add("if-modified-since", httpDate(a.lastMod))
			}
		}
	}
	out = append(out, req)
	if len(out) >= n {
		return out
	}

	// The response.
	g.now = g.now.Add(time.Duration(5+r.IntN(300)) * time.Millisecond)
	var resp list
	status := 200
	switch f.kind {
	case kDoc:
		switch x := r.Float64(); {
		case x < 0.02:
			status = 404
		case x < 0.05:
			status = 301
		case x < 0.07:
			status = 302
		}
	case kAPI:
		switch x := r.Float64(); {
		case f.post:
			status = []int{201, 200, 204}[r.IntN(3)]
		case x < 0.04:
			status = []int{400, 401, 403, 429, 500, 503}[r.IntN(6)]
		case x < 0.1:
			status = 204
		}
	default:
		if f.revalid && r.chance(0.9) {
			status = 304
		} else if r.chance(0.005) {
			status = 404
		}
	}
	resp.add(":status", strconv.Itoa(status))
	resp.add("date", httpDate(g.now))
	compressible := f.kind == kDoc || f.kind == kCSS || f.kind == kJS || f.kind == kAPI
	switch {
	case status == 304:
		resp.add("etag", a.etag)
		resp.add("cache-control", "public, max-age=31536000, immutable")
		if h.cdn {
			resp.add("age", strconv.Itoa(r.IntN(86400)))
		}
	case status == 301 || status == 302:
		loc := "https://" + s.hosts[0].authority + strings.TrimSuffix(f.path, "/") + "/"
		if status == 302 {
			loc = "https://" + s.hosts[0].authority + "/login?next=" + url.QueryEscape(f.path)
		}
		resp.add("content-type", "text/html; charset=utf-8")
		resp.add("content-length", "0")
		resp.add("location", loc)
		resp.add("cache-control", "no-cache")
	default:
		size := 0
		switch {
		case status == 204:
		case status >= 400:
			size = r.between(40, 3000)
		case a != nil:
			size = a.size
		case f.kind == kDoc:
			size = r.between(8_000, 400_000)
		default:
			size = r.between(60, 60_000)
		}
		switch {
		case status >= 400 && f.kind != kAPI:
			resp.add("content-type", "text/html; charset=utf-8")
		case status != 204:
			resp.add("content-type", contentType(f))
		}
		if compressible && size > 1000 {
			enc := "br"
			if !r.chance(0.7) {
				enc = "gzip"
			}
			resp.add("content-encoding", enc)
			size = size/4 + r.IntN(size/8+1)
		}
		resp.add("content-length", strconv.Itoa(size))
		switch {
		case a != nil && status == 200:
			resp.add("etag", a.etag)
			resp.add("last-modified", httpDate(a.lastMod))
			if f.kind == kImg && r.chance(0.3) {
				resp.add("cache-control", "public, max-age=86400")
			} else {
				resp.add("cache-control", "public, max-age=31536000, immutable")
			}
			if f.kind == kImg || f.kind == kFont {
				resp.add("accept-ranges", "bytes")
			}
			if f.kind == kFont {
				resp.add("access-control-allow-origin", "*")
			}
		case f.kind != kAPI && status >= 400:
			resp.add("cache-control", "no-cache")
		case f.kind == kDoc:
			resp.add("cache-control", r.pick([]string{"private, no-cache, no-store, must-revalidate", "max-age=0, private, must-revalidate", "private, max-age=60"}))
			resp.add("x-frame-options", "SAMEORIGIN")
			resp.add("strict-transport-security", "max-age=31536000; includeSubDomains; preload")
		default:
			resp.add("cache-control", "no-store")
			resp.add("access-control-allow-origin", "https://"+s.hosts[0].authority)
			resp.add("access-control-allow-credentials", "true")
			resp.add("x-request-id", r.uuid())
		}
	}
	if h.cdn && status != 304 {
		resp.add("age", strconv.Itoa(r.IntN(86400)))
		if r.chance(0.9) {
			resp.add("x-cache", "HIT")
		} else {
			resp.add("x-cache", "MISS")
		}
	}
	if compressible && status != 304 {
		if f.kind == kAPI {
			resp.add("vary", "Origin, Accept-Encoding")
		} else if f.kind == kDoc {
			resp.add("vary", "Accept-Encoding, Cookie")
		} else {
			resp.add("vary", "Accept-Encoding")
		}
	}
	resp.add("server", h.server)
	// Server-set cookies: on a first visit all are set, later some rotate.
	if h.cookies && (f.kind == kDoc || f.kind == kAPI) && status < 400 {
		for ci, c := range s.cookies {
			if !c.server {
				continue
			}
			if u.jars[f.si][ci] == "" || r.chance(c.rotate/3) {
				v := c.gen(r, g.now, u.visits[f.si])
				u.jars[f.si][ci] = v
				resp.add("set-cookie", c.name+"="+v+c.attrs)
			}
		}
	}
	return append(out, resp)
}

// replaceAsset replaces a random asset of the kind (images, or else any
// other kind) with a new version that no user has seen.
func (g *browserGen) replaceAsset(si int, kind resKind) {
	s := &g.sites[si]
	var idx []int
	for i, a := range s.assets {
		if (a.kind == kImg) == (kind == kImg) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return
	}
	ai := idx[g.r.IntN(len(idx))]
	g.renew(&s.assets[ai], g.now)
	for _, u := range g.users {
		u.seen[si][ai] = false
	}
}

func contentType(f fetch) string {
	switch f.kind {
	case kDoc:
		return "text/html; charset=utf-8"
	case kCSS:
		return "text/css"
	case kJS:
		return "application/javascript; charset=utf-8"
	case kFont:
		return "font/woff2"
	case kImg:
		switch {
		case strings.Contains(f.path, ".png"):
			return "image/png"
		case strings.Contains(f.path, "fm=webp"):
			return "image/webp"
		}
		return "image/jpeg"
	}
	return "application/json; charset=utf-8"
}
