package workload

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/metapack/metapack/internal/story"
)

// gRPC hosts. Plaintext in-cluster hosts use the http scheme.
type grpcHost struct {
	authority string
	scheme    string
	envoy     bool   // behind an Envoy proxy: adds date, server and timing headers
	acceptEnc string // the server's grpc-accept-encoding, "" when not sent
}

var grpcHosts = []grpcHost{
	{"api.acme.io", "https", true, ""},
	{"users.acme.svc.cluster.local:50051", "http", false, "gzip"},
	{"catalog.acme.svc.cluster.local:50051", "http", false, "gzip"},
	{"orders.acme.svc.cluster.local:50051", "http", false, "identity,gzip"},
	{"payments.internal.acme.io:443", "https", true, "gzip"},
}

// gRPC methods, most popular first; popularity falls off as 1/rank.
type grpcMethod struct {
	path     string
	hosts    []int         // indexes into grpcHosts
	deadline time.Duration // the client's usual deadline
	errRate  float64
}

var grpcMethods = []grpcMethod{
	{"/acme.catalog.v1.CatalogService/GetProduct", []int{0, 2}, 300 * time.Millisecond, 0.03},
	{"/acme.user.v1.UserService/GetUser", []int{0, 1}, 200 * time.Millisecond, 0.04},
	{"/grpc.health.v1.Health/Check", []int{0, 1, 2, 3, 4}, time.Second, 0.01},
	{"/acme.auth.v1.TokenService/ValidateToken", []int{0, 1}, 100 * time.Millisecond, 0.08},
	{"/acme.catalog.v1.CatalogService/SearchProducts", []int{0, 2}, 2 * time.Second, 0.03},
	{"/acme.catalog.v1.CatalogService/GetInventory", []int{2}, 500 * time.Millisecond, 0.04},
	{"/acme.order.v1.OrderService/GetOrder", []int{0, 3}, 500 * time.Millisecond, 0.05},
	{"/acme.user.v1.UserService/BatchGetUsers", []int{1}, time.Second, 0.03},
	{"/acme.order.v1.OrderService/ListOrders", []int{0, 3}, 2 * time.Second, 0.04},
	{"/acme.order.v1.OrderService/CreateOrder", []int{0, 3}, 5 * time.Second, 0.07},
	{"/acme.catalog.v1.CatalogService/ListCategories", []int{0, 2}, time.Second, 0.02},
	{"/acme.payments.v1.PaymentService/Authorize", []int{4}, 10 * time.Second, 0.09},
	{"/acme.user.v1.UserService/UpdateUser", []int{0, 1}, 3 * time.Second, 0.06},
	{"/acme.notify.v1.NotificationService/Send", []int{4}, 5 * time.Second, 0.05},
	{"/acme.payments.v1.PaymentService/Capture", []int{4}, 10 * time.Second, 0.06},
	{"/acme.auth.v1.TokenService/RefreshToken", []int{0}, time.Second, 0.1},
	{"/acme.user.v1.UserService/ListUsers", []int{1}, 5 * time.Second, 0.03},
	{"/acme.notify.v1.NotificationService/GetPreferences", []int{4}, 300 * time.Millisecond, 0.03},
	{"/acme.order.v1.OrderService/CancelOrder", []int{0, 3}, 5 * time.Second, 0.12},
	{"/acme.payments.v1.PaymentService/Refund", []int{4}, 30 * time.Second, 0.1},
	{"/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo", []int{1, 2}, 0, 0.3},
}

var grpcMethodWeights = func() weighted {
	ws := make([]float64, len(grpcMethods))
	for i := range ws {
		ws[i] = 1 / float64(i+1) // Zipf, s = 1
	}
	return newWeighted(ws...)
}()

var grpcTenants = []string{"acme-retail", "globex", "initech", "umbrella-corp", "hooli", "tenant-000417"}

// roundTimeouts are grpc-timeout values as hand-configured clients and
// proxies send them.
var roundTimeouts = []string{"99m", "100m", "250m", "1S", "5S", "30S", "1M", "1000u", "2H"}

type grpcClient struct {
	java        bool
	userAgent   string
	contentType string
	acceptEnc   string  // grpc-accept-encoding, "" when not sent
	compress    float64 // chance a request is sent with grpc-encoding: gzip
	timeouts    int     // 0: none, 1: remaining deadline, 2: round values
	tenants     []string
	authProb    float64
	token       int
	traceBin    float64 // chance of grpc-trace-bin
	sampled     float64 // chance the traceparent's sampled flag is set
}

// grpcGen is the state of one GRPC workload.
type grpcGen struct {
	r        rng
	clients  []grpcClient
	cweights weighted
	tokens   []string
	now      time.Time
}

func newGRPCGen(seed uint64) *grpcGen {
	g := &grpcGen{r: newRNG(seed, 1)}
	r := g.r
	g.now = time.Date(2024, 5, 14, 8, 0, 0, 0, time.UTC).Add(time.Duration(r.IntN(30*24*3600)) * time.Second)
	// A small pool of JWT-like bearer tokens.
	for range 4 {
		payload := fmt.Sprintf(`{"sub":"svc-%s","aud":"api.acme.io","iat":%d,"exp":%d,"scope":"read write","tid":"%s"}`,
			r.alnum(8), 1715670000+r.IntN(100000), 1715770000+r.IntN(100000), r.pick(grpcTenants))
		g.tokens = append(g.tokens, "eyJhbGciOiJSUzI1NiIsImtpZCI6I"+r.alnum(14)+"IsInR5cCI6IkpXVCJ9."+b64url([]byte(payload))+"."+b64url(r.bytes(64)))
	}
	// The client roles are fixed, so that every seed has the same kinds of
	// traffic; the seed picks their versions, tenants, tokens and how busy
	// each one is.
	roles := []grpcClient{
		{java: false, contentType: "application/grpc", acceptEnc: "gzip", compress: 0.5, timeouts: 1, authProb: 1, sampled: 0.1},
		{java: true, contentType: "application/grpc", acceptEnc: "gzip", timeouts: 1, authProb: 1, traceBin: 0.7, sampled: 0.01},
		{java: false, contentType: "application/grpc+proto", acceptEnc: "identity,deflate,gzip", timeouts: 2, traceBin: 0.6, sampled: 1},
		{java: true, contentType: "application/grpc", acceptEnc: "identity,gzip", compress: 0.9, timeouts: 2, authProb: 0.3, sampled: 0.1},
		{java: false, contentType: "application/grpc"}, // bare: no deadline, grpc-accept-encoding or credentials
		{java: false, contentType: "application/grpc", acceptEnc: "gzip", compress: 1, timeouts: 1, authProb: 1, traceBin: 1, sampled: 0.01},
	}
	ws := make([]float64, len(roles))
	for i, rank := range r.Perm(len(roles)) {
		c := roles[i]
		if c.java {
			c.userAgent = fmt.Sprintf("grpc-java-netty/1.5%d.%d", r.IntN(10), r.IntN(4))
		} else {
			c.userAgent = fmt.Sprintf("grpc-go/1.6%d.%d", r.IntN(10), r.IntN(4))
		}
		for range 1 + r.IntN(2) {
			c.tenants = append(c.tenants, r.pick(grpcTenants))
		}
		c.token = r.IntN(len(g.tokens))
		g.clients = append(g.clients, c)
		ws[i] = 1 / float64(rank+1)
	}
	g.cweights = newWeighted(ws...)
	return g
}

// GRPC returns n header lists of a synthetic gRPC workload, deterministic
// for a seed: unary calls between a few clients (grpc-go and grpc-java) and
// servers, each call giving its request headers, response headers and
// trailers in that order. A call that fails early gets a trailers-only
// response (one list holding :status, content-type and grpc-status) instead
// of response headers and trailers. The last call is cut short when n is
// reached.
func GRPC(n int, seed uint64) [][]story.Header {
	out := make([][]story.Header, 0, max(n, 0))
	if n <= 0 {
		return out
	}
	g := newGRPCGen(seed)
	for len(out) < n {
		for _, hs := range g.call() {
			if len(out) == n {
				break
			}
			out = append(out, hs)
		}
	}
	return out
}

// GRPCStory wraps GRPC as a story.
func GRPCStory(n int, seed uint64) *story.Story {
	return toStory(fmt.Sprintf("metapack synthetic gRPC workload: %d header lists, seed %d", n, seed), GRPC(n, seed))
}

// grpcTimeout encodes d as grpc-go and grpc-java do: the smallest unit in
// which the value fits in 8 digits, rounding up.
func grpcTimeout(d time.Duration) string {
	const maxValue = 99999999
	units := []struct {
		unit string
		size time.Duration
	}{{"n", time.Nanosecond}, {"u", time.Microsecond}, {"m", time.Millisecond}, {"S", time.Second}, {"M", time.Minute}, {"H", time.Hour}}
	if d <= 0 {
		return "0n"
	}
	for _, u := range units {
		v := d / u.size
		if d%u.size != 0 {
			v++ // round up
		}
		if v <= maxValue {
			return strconv.FormatInt(int64(v), 10) + u.unit
		}
	}
	return "99999999H"
}

// call returns the header lists of one call.
func (g *grpcGen) call() [][]story.Header {
	r := g.r
	g.now = g.now.Add(time.Duration(r.IntN(40_000)) * time.Microsecond)
	c := &g.clients[g.cweights.pick(r)]
	m := &grpcMethods[grpcMethodWeights.pick(r)]
	h := &grpcHosts[m.hosts[r.IntN(len(m.hosts))]]
	compressed := r.chance(c.compress)

	var timeout string
	switch {
	case m.deadline == 0: // streaming reflection: no deadline
	case c.timeouts == 1:
		// The deadline less the time spent before sending, jittered.
		spent := time.Duration(r.ExpFloat64() * float64(150*time.Microsecond))
		timeout = grpcTimeout(m.deadline - spent)
	case c.timeouts == 2:
		timeout = r.pick(roundTimeouts)
	}

	// Trace context: the same trace in traceparent and grpc-trace-bin.
	traceID, spanID := r.bytes(16), r.bytes(8)
	flags := "00"
	if r.chance(c.sampled) {
		flags = "01"
	}

	var req list
	if c.java {
		req.add(":authority", h.authority)
		req.add(":path", m.path)
		req.add(":method", "POST")
		req.add(":scheme", h.scheme)
		if c.acceptEnc != "" {
			req.add("grpc-accept-encoding", c.acceptEnc)
		}
		if compressed {
			req.add("grpc-encoding", "gzip")
		}
		req.add("te", "trailers")
		req.add("content-type", c.contentType)
		req.add("user-agent", c.userAgent)
		if timeout != "" {
			req.add("grpc-timeout", timeout)
		}
	} else {
		req.add(":method", "POST")
		req.add(":scheme", h.scheme)
		req.add(":path", m.path)
		req.add(":authority", h.authority)
		req.add("content-type", c.contentType)
		req.add("user-agent", c.userAgent)
		req.add("te", "trailers")
		if compressed {
			req.add("grpc-encoding", "gzip")
		}
		if c.acceptEnc != "" {
			req.add("grpc-accept-encoding", c.acceptEnc)
		}
		if timeout != "" {
			req.add("grpc-timeout", timeout)
		}
	}
	if r.chance(c.authProb) {
		tok := c.token
		if r.chance(0.05) { // a rotated or borrowed credential
			tok = r.IntN(len(g.tokens))
		}
		req.add("authorization", "Bearer "+g.tokens[tok])
	}
	tenant := c.tenants[r.IntN(len(c.tenants))]
	req.add("x-tenant-id", tenant)
	req.add("x-request-id", r.uuid())
	req.add("traceparent", "00-"+hexs(traceID)+"-"+hexs(spanID)+"-"+flags)
	if r.chance(c.traceBin) {
		// OpenCensus binary format: version, trace id, span id, options.
		b := []byte{0, 0}
		b = append(b, traceID...)
		b = append(b, 1)
		b = append(b, spanID...)
		b = append(b, 2, flags[1]-'0')
		req.add("grpc-trace-bin", b64(b))
	}
	if r.chance(0.03) {
		req.add("x-client-context-bin", b64(r.bytes(r.between(12, 48))))
	}

	status, msg := 0, ""
	if r.chance(m.errRate) {
		status, msg = g.grpcError(m, tenant)
	}
	latency := time.Duration(float64(r.ExpFloat64()*float64(m.deadline/20+time.Millisecond))) + 200*time.Microsecond
	g.now = g.now.Add(latency)

	respType := c.contentType
	// Errors found before the handler runs get a trailers-only response.
	early := status == 12 || status == 16 || status == 7 || status == 8 || (status == 14 && h.envoy)
	if early && r.chance(0.8) {
		var only list
		only.add(":status", "200")
		only.add("content-type", respType)
		g.envoyHeaders(&only, h, latency)
		only.add("grpc-status", strconv.Itoa(status))
		only.add("grpc-message", percentEncode(msg))
		return [][]story.Header{req, only}
	}

	var resp list
	resp.add(":status", "200")
	resp.add("content-type", respType)
	if strings.Contains(c.acceptEnc, "gzip") && r.chance(0.6) {
		resp.add("grpc-encoding", "gzip")
	}
	if h.acceptEnc != "" {
		resp.add("grpc-accept-encoding", h.acceptEnc)
	}
	g.envoyHeaders(&resp, h, latency)

	var tr list
	tr.add("grpc-status", strconv.Itoa(status))
	if status != 0 {
		tr.add("grpc-message", percentEncode(msg))
		if r.chance(0.25) {
			// A google.rpc.Status: code (field 1) and message (field 2).
			b := []byte{0x08, byte(status), 0x12}
			b = binary.AppendUvarint(b, uint64(len(msg)))
			b = append(b, msg...)
			tr.add("grpc-status-details-bin", b64(b))
		}
	}
	return [][]story.Header{req, resp, tr}
}

func (g *grpcGen) envoyHeaders(l *list, h *grpcHost, latency time.Duration) {
	if !h.envoy {
		return
	}
	l.add("date", httpDate(g.now))
	l.add("server", "envoy")
	l.add("x-envoy-upstream-service-time", strconv.Itoa(int(latency/time.Millisecond)))
}

func hexs(b []byte) string { return hex.EncodeToString(b) }

var grpcErrCodes = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
var grpcErrWeights = newWeighted(4, 2, 10, 15, 30, 2, 5, 5, 3, 2, 1, 1, 4, 15, 0.5, 6)

// grpcError returns an error status and its (not yet percent-encoded)
// message. Some messages carry non-ASCII text or '%' so that encoding shows.
func (g *grpcGen) grpcError(m *grpcMethod, tenant string) (int, string) {
	r := g.r
	code := grpcErrCodes[grpcErrWeights.pick(r)]
	svc, meth, _ := strings.Cut(strings.TrimPrefix(m.path, "/"), "/")
	var msg string
	switch code {
	case 1:
		msg = "context canceled"
	case 2:
		msg = r.pick([]string{"unexpected EOF", "stream terminated by RST_STREAM with error code: INTERNAL_ERROR"})
	case 3:
		switch r.IntN(3) {
		case 0:
			msg = fmt.Sprintf("invalid page_size %d: must be between 1 and 1000", 1000+r.IntN(9000))
		case 1:
			msg = "champ « email » invalide : adresse mal formée"
		default:
			msg = fmt.Sprintf("field \"quantity\": value %d ≤ 0", -r.IntN(5))
		}
	case 4:
		msg = "context deadline exceeded"
	case 5:
		switch r.IntN(4) {
		case 0:
			msg = fmt.Sprintf("user %d not found", 100000+r.IntN(900000))
		case 1:
			msg = fmt.Sprintf("order ord_%s not found", r.alnum(12))
		case 2:
			msg = fmt.Sprintf("product sku-%05d not found", r.IntN(100000))
		default:
			msg = fmt.Sprintf("réservation %d introuvable", r.IntN(1000000))
		}
	case 6:
		msg = "order with idempotency key " + r.uuid() + " already exists"
	case 7:
		msg = fmt.Sprintf("tenant %q may not call %s", tenant, m.path)
	case 8:
		msg = fmt.Sprintf("rate limit: 100%% of %d req/s used, retry in %dms", []int{100, 500, 1000}[r.IntN(3)], 50+r.IntN(950))
	case 9:
		msg = fmt.Sprintf("order %d is already shipped", r.IntN(10000000))
	case 10:
		msg = fmt.Sprintf("transaction aborted: write conflict on key orders/%d", r.IntN(10000000))
	case 11:
		msg = fmt.Sprintf("offset %d is past the end (%d items)", 500+r.IntN(500), r.IntN(500))
	case 12:
		msg = fmt.Sprintf("unknown method %s for service %s", meth, svc)
	case 13:
		msg = r.pick([]string{
			"panic recovered: runtime error: index out of range [5] with length 5",
			"grpc: error while marshaling: string field contains invalid UTF-8",
			"database error: ERROR: duplicate key value violates unique constraint \"orders_pkey\"\n\tDETAIL: Key (id) already exists.",
		})
	case 14:
		if r.chance(0.5) {
			msg = "upstream connect error or disconnect/reset before headers. reset reason: connection failure"
		} else {
			msg = fmt.Sprintf("connection error: desc = \"transport: Error while dialing: dial tcp 10.0.%d.%d:50051: connect: connection refused\"", r.IntN(256), r.IntN(256))
		}
	case 15:
		msg = fmt.Sprintf("checksum mismatch: want 0x%08x, got 0x%08x", r.Uint32(), r.Uint32())
	case 16:
		if r.chance(0.5) {
			msg = "missing bearer token"
		} else {
			msg = "token expired at " + g.now.Add(-time.Duration(r.IntN(3600))*time.Second).Format(time.RFC3339)
		}
	}
	return code, msg
}
