// Calls of this site's JSON API made as the signed-in account: the session cookie
// travels by itself (HttpOnly), and every write carries the session's CSRF token.

import {ApiError, errorText} from './api.js';

/** A JSON call; `csrf`: the session's CSRF token, for writes. A refusal throws an
 * `ApiError` with the answer's status, code and body. */
export async function call(method, path, body, csrf) {
  const headers = {Accept: 'application/json'};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (csrf) headers['X-CSRF-Token'] = csrf;
  let res;
  try {
    res = await fetch(path, {method, headers, credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body)});
  } catch {
    throw new Error('The server cannot be reached.');
  }
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, errorText(data) || `${res.status} ${res.statusText}`, data);
  return data;
}
