-- Acceptance and finishing in one round trip each (docs/decisions/0111-acceptance-in-one-round-trip.md).
-- Each statement in these VOLATILE functions takes a fresh snapshot (READ COMMITTED), so a lookup
-- made after a lock is granted sees what the lock's previous holder committed.
CREATE FUNCTION rq_accept_run(
	p_id text, p_account text, p_key text, p_key_prefix text, p_origin text, p_endpoint text, p_query text,
	p_period text, p_created_at text, p_instance text, p_limits jsonb,
	p_claim text, p_query_hash text, p_since text, p_sweep boolean,
	OUT outcome text, OUT existing_run text, OUT same_query boolean
) LANGUAGE plpgsql AS $$
DECLARE
	v_plan text;
	v_limit integer;
	v_found record;
BEGIN
	IF p_account IS NOT NULL THEN
		SELECT plan INTO v_plan FROM accounts WHERE id = p_account;
		IF NOT FOUND THEN outcome := 'no_account'; RETURN; END IF;
	END IF;
	-- The key passed the check before the body was read; a revocation since then still counts.
	IF p_key IS NOT NULL AND NOT EXISTS (SELECT 1 FROM api_keys WHERE id = p_key AND status = 'active') THEN
		outcome := 'key_inactive'; RETURN;
	END IF;
	IF p_claim IS NOT NULL AND p_account IS NOT NULL THEN
		-- Retries of one key on several instances queue here; each after the first finds the claim.
		PERFORM pg_advisory_xact_lock(hashtext('idempotency:' || p_account || ' ' || p_claim));
		SELECT run_id, query_hash INTO v_found FROM idempotency_keys
			WHERE account_id = p_account AND key = p_claim AND created_at >= p_since;
		IF FOUND THEN
			outcome := 'existing'; existing_run := v_found.run_id; same_query := v_found.query_hash = p_query_hash;
			RETURN;
		END IF;
	END IF;
	IF p_limits IS NOT NULL AND p_account IS NOT NULL THEN
		v_limit := (p_limits ->> v_plan)::integer;
		-- A month already used up is refused on a read: no row lock, nothing written or rolled back.
		IF v_limit <= 0 OR EXISTS (SELECT 1 FROM run_counters
				WHERE account_id = p_account AND period = p_period AND runs >= v_limit) THEN
			outcome := 'used_up'; RETURN;
		END IF;
	END IF;
	INSERT INTO runs (id, account_id, key_id, key_prefix, origin, endpoint, query, period, status, created_at, instance_id)
		VALUES (p_id, p_account, p_key, p_key_prefix, p_origin, p_endpoint, p_query, p_period, 'running', p_created_at, p_instance);
	IF p_claim IS NOT NULL AND p_account IS NOT NULL THEN
		-- An expired claim of the same key is replaced: after 24 hours the key is free again.
		INSERT INTO idempotency_keys (account_id, key, query_hash, run_id, created_at)
			VALUES (p_account, p_claim, p_query_hash, p_id, p_created_at)
			ON CONFLICT (account_id, key) DO UPDATE SET query_hash = excluded.query_hash, run_id = excluded.run_id,
				created_at = excluded.created_at;
		IF p_sweep THEN DELETE FROM idempotency_keys WHERE created_at < p_since; END IF;
	END IF;
	IF v_limit IS NOT NULL THEN
		-- Last, so the account's counter row stays locked only to the commit: every run of the
		-- account queues on it. Concurrent upserts re-read the committed count before the WHERE.
		INSERT INTO run_counters (account_id, period, runs) VALUES (p_account, p_period, 1)
			ON CONFLICT (account_id, period) DO UPDATE SET runs = run_counters.runs + 1 WHERE run_counters.runs < v_limit;
		-- Lost the last run of the month to a concurrent call: the error undoes the run row and the claim.
		IF NOT FOUND THEN RAISE EXCEPTION 'rq_used_up' USING ERRCODE = 'RQ429'; END IF;
	END IF;
	outcome := 'accepted';
END $$;
--> statement-breakpoint
CREATE FUNCTION rq_finish_run(
	p_id text, p_status text, p_answer text, p_sources text, p_errors text, p_writer text,
	p_tokens_in integer, p_tokens_out integer, p_latency_ms integer, p_finished_at text, p_verification text,
	p_events jsonb
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	-- The run row first: a live-event batch under way (FOR SHARE of the row) ends before this goes
	-- on, and one arriving later finds the run no longer running; the deletes below see either.
	UPDATE runs SET status = p_status, answer = p_answer, sources = p_sources, errors = p_errors, writer = p_writer,
		tokens_in = p_tokens_in, tokens_out = p_tokens_out, latency_ms = p_latency_ms, finished_at = p_finished_at,
		verification = p_verification
		WHERE id = p_id;
	DELETE FROM run_stream WHERE run_id = p_id;
	-- A retry after a commit whose answer was lost replaces what that commit wrote.
	DELETE FROM run_events WHERE run_id = p_id;
	INSERT INTO run_events (run_id, at_ms, type, data)
		SELECT p_id, e.at_ms, e.type, e.data
		FROM ROWS FROM (jsonb_to_recordset(p_events) AS (at_ms integer, type text, data text)) WITH ORDINALITY AS e(at_ms, type, data, ord)
		ORDER BY e.ord;
END $$;
