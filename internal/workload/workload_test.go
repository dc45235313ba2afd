package workload

import (
	"bytes"
	"encoding/base64"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/metapack/metapack/internal/story"
)

type generator struct {
	name string
	fn   func(int, uint64) [][]story.Header
}

var generators = []generator{{"GRPC", GRPC}, {"Browser", Browser}}

func TestDeterministic(t *testing.T) {
	for _, g := range generators {
		t.Run(g.name, func(t *testing.T) {
			a, b := g.fn(600, 42), g.fn(600, 42)
			if diff := cmp.Diff(a, b); diff != "" {
				t.Errorf("two calls with seed 42 differ:\n%s", diff)
			}
			if len(a) != 600 {
				t.Errorf("%d lists, want 600", len(a))
			}
			if diff := cmp.Diff(a[:123], g.fn(123, 42)); diff != "" {
				t.Errorf("a shorter workload is not a prefix of a longer one:\n%s", diff)
			}
			c := g.fn(600, 43)
			if cmp.Equal(a, c) {
				t.Error("seeds 42 and 43 give the same workload")
			}
			if cmp.Equal(a[:20], g.fn(20, 0)) {
				t.Error("seeds 42 and 0 give the same first lists")
			}
			for _, n := range []int{0, -1} {
				if got := g.fn(n, 1); len(got) != 0 {
					t.Errorf("n=%d gave %d lists", n, len(got))
				}
			}
			if got := g.fn(1, 1); len(got) != 1 || len(got[0]) == 0 {
				t.Errorf("n=1 gave %v", got)
			}
		})
	}
}

// checkFields checks what holds for every list: lowercase, well-formed
// names; printable ASCII values; pseudo-headers first.
func checkFields(t *testing.T, lists [][]story.Header) {
	t.Helper()
	errs := 0
	fail := func(format string, args ...any) {
		t.Helper()
		if errs++; errs <= 10 {
			t.Errorf(format, args...)
		}
	}
	for i, hs := range lists {
		if len(hs) == 0 {
			fail("list %d is empty", i)
		}
		regular := false
		for _, h := range hs {
			name := strings.TrimPrefix(h.Name, ":")
			if name == "" || strings.ToLower(name) != name || strings.ContainsAny(name, " :\t\r\n") {
				fail("list %d: bad name %q", i, h.Name)
			}
			for j := 0; j < len(h.Value); j++ {
				if c := h.Value[j]; c < 0x20 || c > 0x7e {
					fail("list %d: %s value %q has byte %#x", i, h.Name, h.Value, c)
					break
				}
			}
			if strings.HasPrefix(h.Name, ":") {
				if regular {
					fail("list %d: pseudo-header %s after a regular header", i, h.Name)
				}
			} else {
				regular = true
			}
		}
	}
}

func get(hs []story.Header, name string) (string, bool) {
	for _, h := range hs {
		if h.Name == name {
			return h.Value, true
		}
	}
	return "", false
}

func count(hs []story.Header, name string) int {
	n := 0
	for _, h := range hs {
		if h.Name == name {
			n++
		}
	}
	return n
}

var (
	reUUID        = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	reTraceparent = regexp.MustCompile(`^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$`)
	rePath        = regexp.MustCompile(`^/[a-z0-9]+(\.[a-zA-Z0-9]+)+/[A-Z][A-Za-z]+$`)
	reTimeout     = regexp.MustCompile(`^[0-9]{1,8}[HMSmun]$`)
	rePercent     = regexp.MustCompile(`%[0-9A-F]{2}`)
)

func TestGRPC(t *testing.T) {
	const n = 6000
	lists := GRPC(n, 1)
	checkFields(t, lists)

	var (
		calls, errors, trailersOnly, java, goClients, auth, traceBin, compressed, detailsBin int
		paths                                                                                = map[string]int{}
		authorities, tenants, tokens, units                                                  = map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
		requestIDs, traces                                                                   = map[string]bool{}, map[string]bool{}
		nonASCIIMessage                                                                      bool
	)
	const (
		wantRequest = iota
		wantResponse
		wantTrailers
	)
	state := wantRequest
	for i, hs := range lists {
		_, isReq := get(hs, ":method")
		_, hasStatus := get(hs, ":status")
		gs, hasGRPCStatus := get(hs, "grpc-status")
		switch {
		case isReq:
			if state != wantRequest {
				t.Fatalf("list %d: a request where a response or trailers were due: %v", i, hs)
			}
			state = wantResponse
			calls++
			for _, p := range []string{":method", ":scheme", ":path", ":authority"} {
				if count(hs, p) != 1 {
					t.Fatalf("list %d: %d %s fields: %v", i, count(hs, p), p, hs)
				}
			}
			if !strings.HasPrefix(hs[0].Name, ":") {
				t.Fatalf("list %d does not start with a pseudo-header: %v", i, hs)
			}
			m, _ := get(hs, ":method")
			scheme, _ := get(hs, ":scheme")
			path, _ := get(hs, ":path")
			authority, _ := get(hs, ":authority")
			if m != "POST" || (scheme != "http" && scheme != "https") || !rePath.MatchString(path) || authority == "" {
				t.Fatalf("list %d: bad request pseudo-headers: %v", i, hs)
			}
			paths[path]++
			authorities[authority] = true
			if ct, _ := get(hs, "content-type"); ct != "application/grpc" && ct != "application/grpc+proto" {
				t.Fatalf("list %d: content-type %q", i, ct)
			}
			if te, _ := get(hs, "te"); te != "trailers" {
				t.Fatalf("list %d: te %q", i, te)
			}
			ua, _ := get(hs, "user-agent")
			switch {
			case regexp.MustCompile(`^grpc-go/1\.6\d\.\d$`).MatchString(ua):
				goClients++
			case regexp.MustCompile(`^grpc-java-netty/1\.5\d\.\d$`).MatchString(ua):
				java++
			default:
				t.Fatalf("list %d: user-agent %q", i, ua)
			}
			id, _ := get(hs, "x-request-id")
			if !reUUID.MatchString(id) || requestIDs[id] {
				t.Fatalf("list %d: x-request-id %q is malformed or repeated", i, id)
			}
			requestIDs[id] = true
			tp, _ := get(hs, "traceparent")
			if !reTraceparent.MatchString(tp) || traces[tp] {
				t.Fatalf("list %d: traceparent %q is malformed or repeated", i, tp)
			}
			traces[tp] = true
			tenant, ok := get(hs, "x-tenant-id")
			if !ok {
				t.Fatalf("list %d: no x-tenant-id", i)
			}
			tenants[tenant] = true
			if v, ok := get(hs, "grpc-timeout"); ok {
				if !reTimeout.MatchString(v) {
					t.Fatalf("list %d: grpc-timeout %q", i, v)
				}
				units[v[len(v)-1:]] = true
			}
			if v, ok := get(hs, "authorization"); ok {
				if !strings.HasPrefix(v, "Bearer ") {
					t.Fatalf("list %d: authorization %q", i, v)
				}
				auth++
				tokens[v] = true
			}
			if v, ok := get(hs, "grpc-trace-bin"); ok {
				b, err := base64.RawStdEncoding.DecodeString(v)
				if err != nil || len(b) != 29 {
					t.Fatalf("list %d: grpc-trace-bin %q: %v (%d bytes)", i, v, err, len(b))
				}
				traceBin++
			}
			if _, ok := get(hs, "grpc-encoding"); ok {
				compressed++
			}
		case hasStatus:
			if state != wantResponse {
				t.Fatalf("list %d: response headers where %d was due: %v", i, state, hs)
			}
			if s, _ := get(hs, ":status"); s != "200" || hs[0].Name != ":status" {
				t.Fatalf("list %d: bad response: %v", i, hs)
			}
			if ct, _ := get(hs, "content-type"); !strings.HasPrefix(ct, "application/grpc") {
				t.Fatalf("list %d: response content-type %q", i, ct)
			}
			state = wantTrailers
			if hasGRPCStatus { // trailers-only
				trailersOnly++
				state = wantRequest
			}
		case hasGRPCStatus:
			if state != wantTrailers {
				t.Fatalf("list %d: trailers where %d was due: %v", i, state, hs)
			}
			state = wantRequest
		default:
			t.Fatalf("list %d is neither request, response nor trailers: %v", i, hs)
		}
		if hasGRPCStatus {
			code, err := strconv.Atoi(gs)
			if err != nil || code < 0 || code > 16 {
				t.Fatalf("list %d: grpc-status %q", i, gs)
			}
			msg, hasMsg := get(hs, "grpc-message")
			if hasMsg != (code != 0) {
				t.Fatalf("list %d: grpc-status %d with grpc-message %v", i, code, hasMsg)
			}
			if code != 0 {
				errors++
				// Percent-encoded: '%' only in escapes, and it decodes to UTF-8.
				if strings.Contains(rePercent.ReplaceAllString(msg, ""), "%") {
					t.Fatalf("list %d: grpc-message %q has a bare %%", i, msg)
				}
				dec, err := url.PathUnescape(msg)
				if err != nil || !utf8.ValidString(dec) || dec == "" {
					t.Fatalf("list %d: grpc-message %q decodes to %q, %v", i, msg, dec, err)
				}
				if dec != msg && strings.ContainsFunc(dec, func(r rune) bool { return r > 0x7e }) {
					nonASCIIMessage = true
				}
			}
			if v, ok := get(hs, "grpc-status-details-bin"); ok {
				if _, err := base64.RawStdEncoding.DecodeString(v); err != nil {
					t.Fatalf("list %d: grpc-status-details-bin %q: %v", i, v, err)
				}
				detailsBin++
			}
		}
	}

	// The mix is as described.
	t.Logf("%d calls: %d errors (%d trailers-only), %d go / %d java, %d with authorization, %d grpc-trace-bin, %d compressed, %d details-bin, %d paths, %d authorities, timeout units %v",
		calls, errors, trailersOnly, goClients, java, auth, traceBin, compressed, detailsBin, len(paths), len(authorities), units)
	if calls < n/3-1 || calls > n/2+1 {
		t.Errorf("%d calls in %d lists", calls, n)
	}
	if errors == 0 || errors > calls/5 {
		t.Errorf("%d errors in %d calls", errors, calls)
	}
	if trailersOnly == 0 || !nonASCIIMessage || detailsBin == 0 {
		t.Errorf("trailers-only %d, non-ASCII message %v, details-bin %d: want all", trailersOnly, nonASCIIMessage, detailsBin)
	}
	if len(paths) < 15 || len(authorities) < 3 || len(tenants) < 2 || len(tokens) < 2 || len(tokens) > 4 {
		t.Errorf("%d paths, %d authorities, %d tenants, %d tokens", len(paths), len(authorities), len(tenants), len(tokens))
	}
	if len(units) < 2 || auth == 0 || auth == calls || traceBin == 0 || traceBin == calls || compressed == 0 {
		t.Errorf("timeout units %v, authorization %d, grpc-trace-bin %d, compressed %d of %d calls", units, auth, traceBin, compressed, calls)
	}
	var counts []int
	for _, c := range paths {
		counts = append(counts, c)
	}
	slices.Sort(counts)
	if top, median := counts[len(counts)-1], counts[len(counts)/2]; top < 3*median {
		t.Errorf("popularity is not skewed: top path %d calls, median %d", top, median)
	}
}

func TestGRPCClientMix(t *testing.T) {
	// Over seeds, both client kinds appear.
	var goSeen, javaSeen bool
	for seed := range uint64(8) {
		for _, hs := range GRPC(60, seed) {
			ua, _ := get(hs, "user-agent")
			goSeen = goSeen || strings.HasPrefix(ua, "grpc-go/")
			javaSeen = javaSeen || strings.HasPrefix(ua, "grpc-java-netty/")
		}
	}
	if !goSeen || !javaSeen {
		t.Errorf("grpc-go seen %v, grpc-java seen %v", goSeen, javaSeen)
	}
}

func TestBrowser(t *testing.T) {
	const n = 6000
	lists := Browser(n, 1)
	checkFields(t, lists)
	var (
		gets, posts, cookies, setCookies, notModified, queries, referers int
		authorities, agents, statuses                                    = map[string]bool{}, map[string]bool{}, map[string]bool{}
		cookieValues                                                     = map[string]bool{}
		last                                                             time.Time
	)
	for i, hs := range lists {
		if i%2 == 0 { // requests
			m, _ := get(hs, ":method")
			switch m {
			case "GET":
				gets++
			case "POST":
				posts++
			default:
				t.Fatalf("list %d: :method %q: %v", i, m, hs)
			}
			for _, p := range []string{":method", ":scheme", ":authority", ":path"} {
				if count(hs, p) != 1 {
					t.Fatalf("list %d: %d %s fields", i, count(hs, p), p)
				}
			}
			if s, _ := get(hs, ":scheme"); s != "https" {
				t.Fatalf("list %d: scheme %q", i, s)
			}
			a, _ := get(hs, ":authority")
			p, _ := get(hs, ":path")
			if a == "" || !strings.HasPrefix(p, "/") {
				t.Fatalf("list %d: bad authority or path: %v", i, hs)
			}
			authorities[a] = true
			if strings.Contains(p, "?") {
				queries++
			}
			ua, ok := get(hs, "user-agent")
			if !ok || !strings.HasPrefix(ua, "Mozilla/5.0 ") {
				t.Fatalf("list %d: user-agent %q", i, ua)
			}
			agents[ua] = true
			if v, _ := get(hs, "accept-encoding"); v != "gzip, deflate, br" {
				t.Fatalf("list %d: accept-encoding %q", i, v)
			}
			for _, name := range []string{"accept", "accept-language"} {
				if _, ok := get(hs, name); !ok {
					t.Fatalf("list %d: no %s", i, name)
				}
			}
			if v, ok := get(hs, "cookie"); ok {
				cookies++
				cookieValues[v] = true
			}
			if _, ok := get(hs, "referer"); ok {
				referers++
			}
			if _, ok := get(hs, ":status"); ok {
				t.Fatalf("list %d: request with :status", i)
			}
		} else { // responses
			if hs[0].Name != ":status" || count(hs, ":status") != 1 {
				t.Fatalf("list %d: not a response: %v", i, hs)
			}
			s := hs[0].Value
			if code, err := strconv.Atoi(s); err != nil || code < 200 || code > 599 {
				t.Fatalf("list %d: :status %q", i, s)
			}
			statuses[s] = true
			if s == "304" {
				notModified++
			}
			d, _ := get(hs, "date")
			when, err := time.Parse(time.RFC1123, d)
			if err != nil || when.Before(last) {
				t.Fatalf("list %d: date %q (%v) before %v", i, d, err, last)
			}
			last = when
			if _, ok := get(hs, "server"); !ok {
				t.Fatalf("list %d: no server", i)
			}
			setCookies += count(hs, "set-cookie")
		}
	}
	t.Logf("%d GET, %d POST, %d with cookie (%d distinct), %d set-cookie, %d 304, %d with query, %d with referer, %d authorities, %d user agents, statuses %v",
		gets, posts, cookies, len(cookieValues), setCookies, notModified, queries, referers, len(authorities), len(agents), statuses)
	if posts == 0 || posts > gets/10 {
		t.Errorf("%d GET, %d POST", gets, posts)
	}
	if cookies == 0 || len(cookieValues) < 5 || len(cookieValues) > cookies/2 {
		t.Errorf("%d requests with cookies, %d distinct values: want some, changing slowly", cookies, len(cookieValues))
	}
	if setCookies == 0 || notModified == 0 || queries == 0 || referers == 0 {
		t.Errorf("set-cookie %d, 304 %d, queries %d, referers %d: want all", setCookies, notModified, queries, referers)
	}
	if len(authorities) < 5 || len(agents) < 2 || len(statuses) < 4 {
		t.Errorf("%d authorities, %d user agents, statuses %v", len(authorities), len(agents), statuses)
	}
	if !last.After(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("last date %v", last)
	}
}

func TestStories(t *testing.T) {
	for _, tt := range []struct {
		name string
		fn   func(int, uint64) *story.Story
		list func(int, uint64) [][]story.Header
	}{{"GRPCStory", GRPCStory, GRPC}, {"BrowserStory", BrowserStory, Browser}} {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.fn(50, 9)
			lists := tt.list(50, 9)
			if len(s.Cases) != 50 || s.Description == "" {
				t.Fatalf("%d cases, description %q", len(s.Cases), s.Description)
			}
			for i, c := range s.Cases {
				want := -1
				if i == 0 {
					want = 4096
				}
				if c.Seqno != i || c.Wire != nil || c.HeaderTableSize != want || c.DynamicTable != nil || c.DynamicTableSize != -1 {
					t.Errorf("case %d: seqno %d, wire %v, header table size %d, dynamic table %v/%d",
						i, c.Seqno, c.Wire, c.HeaderTableSize, c.DynamicTable, c.DynamicTableSize)
				}
				if diff := cmp.Diff(lists[i], c.Headers); diff != "" {
					t.Errorf("case %d headers differ from the list:\n%s", i, diff)
				}
			}
			// The story survives the JSON format.
			var buf bytes.Buffer
			if err := s.Write(&buf); err != nil {
				t.Fatal(err)
			}
			back, err := story.Read(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(s, back); diff != "" {
				t.Errorf("JSON round trip (-generated +read):\n%s", diff)
			}
			if got := tt.fn(0, 1); len(got.Cases) != 0 {
				t.Errorf("n=0 gave %d cases", len(got.Cases))
			}
		})
	}
}

func TestGRPCTimeout(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0n"},
		{-time.Second, "0n"},
		{time.Nanosecond, "1n"},
		{99999999 * time.Nanosecond, "99999999n"},
		{100 * time.Millisecond, "100000u"},
		{100*time.Millisecond + 1, "100001u"}, // rounds up
		{5 * time.Second, "5000000u"},
		{99999999 * time.Microsecond, "99999999u"},
		{100 * time.Second, "100000m"},
		{48 * time.Hour, "172800S"},
		{math.MaxInt64, "2562048H"},
	} {
		if got := grpcTimeout(tt.d); got != tt.want {
			t.Errorf("grpcTimeout(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestPercentEncode(t *testing.T) {
	for in, want := range map[string]string{
		"":                   "",
		"not found":          "not found",
		"100% used":          "100%25 used",
		"réservation":        "r%C3%A9servation",
		"a\nb\tc":            "a%0Ab%09c",
		"~ and \x7f":         "~ and %7F",
		"champ « email » ok": "champ %C2%AB email %C2%BB ok",
	} {
		if got := percentEncode(in); got != want {
			t.Errorf("percentEncode(%q) = %q, want %q", in, got, want)
		}
	}
}

func BenchmarkGRPC(b *testing.B) {
	for b.Loop() {
		GRPC(1000, 1)
	}
}

func BenchmarkBrowser(b *testing.B) {
	for b.Loop() {
		Browser(1000, 1)
	}
}
