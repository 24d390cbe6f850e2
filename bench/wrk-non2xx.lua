-- For bench/loadgen.mjs: counts the answers other than 200 of every wrk thread and prints "fw-non2xx <count>".
-- wrk's own "Non-2xx or 3xx responses" counts only statuses above 399: a redirect to /login would pass unseen.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  non2xx = 0
end

function response(status, headers, body)
  if status ~= 200 then
    non2xx = non2xx + 1
  end
end

function done(summary, latency, requests)
  local count = 0
  for _, thread in ipairs(threads) do
    count = count + thread:get("non2xx")
  end
  io.write(string.format("fw-non2xx %d\n", count))
end
