-- wrk script for scripts/lab bench-serve: POST /orders with a fresh Idempotency-Key per request.
local counter = 0
local thread_id = 0
local threads = {}

function setup(thread)
   thread:set("tid", thread_id)
   thread_id = thread_id + 1
end

function init(args)
   counter = 0
end

request = function()
   counter = counter + 1
   local key = string.format("bench-%d-%d", tid, counter)
   local body = string.format('{"ref":"ORD-%d","item":"book","qty":1}', counter % 100000)
   return wrk.format("POST", "/orders", {["Content-Type"] = "application/json", ["Idempotency-Key"] = key}, body)
end
